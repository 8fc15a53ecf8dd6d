"""Engine pages, forms link / iframe / form / script_widget. Snippets written from how these engines are
embedded on real independent-hotel sites; the small or fictional-but-plausible ones have catalogued=False."""

from __future__ import annotations

from entry import E, ota_footer

LINK = [
    E("riverbendinnvt", "Riverbend Inn", "Stowe, VT", "com", "en", "North America", "wordpress", "ResNexus",
      "resnexus.com", "link", True,
      '<a class="elementor-button elementor-size-lg" href="https://resnexus.com/resnexus/reservations/book/7F3C2A9E-51B4-4C8D-9A1E-2B6D4F8C0A13" target="_blank">Book Your Stay</a>',
      footer=ota_footer("riverbendinnvt", "us")),
    E("oldrectorydevon", "The Old Rectory", "Exeter", "co.uk", "en", "Europe", "squarespace", "eviivo",
      "via.eviivo.com", "link", True,
      '<div class="sqs-block button-block"><a href="https://via.eviivo.com/en-GB/TheOldRectoryEX17" class="sqs-block-button-element--large sqs-button-element--primary">Check availability &amp; book</a></div>'),
    E("seasidecottagesobx", "Seaside Cottages", "Nags Head, NC", "com", "en", "North America", "webflow", "Guesty",
      "seasidecottagesobx.guestybookings.com", "link", True,
      '<a href="https://seasidecottagesobx.guestybookings.com/en/properties?minOccupancy=2" class="button w-button">Find your cottage</a>'),
    E("kapadokyataskonak", "Taş Konak Cave Hotel", "Göreme", "com", "en", "Europe", "custom", "HotelRunner",
      "taskonakcave.hotelrunner.com", "link", True,
      '<a class="btn btn-warning btn-lg" href="https://taskonakcave.hotelrunner.com/bv3/search?locale=en">Rezervasyon / Book now</a>',
      tagline="Cappadocia, Türkiye"),
    E("casaolivera", "Casa Olivera", "Ronda", "es", "es", "Europe", "wix", "Amenitiz",
      "casaolivera.amenitiz.io", "link", True,
      '<a data-testid="linkElement" href="https://casaolivera.amenitiz.io/es/booking/room" target="_blank" class="wixui-button">Reservar ahora</a>',
      final_url="https://www.casaolivera.es/"),
    E("harborlightsboutique", "Harbor Lights Boutique Hotel", "Portland, ME", "com", "en", "North America",
      "custom", "iHotelier", "reservations.travelclick.com", "link", True,
      '<a class="btn btn-primary book-btn" href="https://reservations.travelclick.com/108743?themeid=25412&amp;adults=2" target="_blank">Reserve</a>',
      footer=ota_footer("harborlightsboutique", "us")),
    E("umhlangasands", "Umhlanga Sands Guest House", "Umhlanga", "co.za", "en", "Africa", "wordpress",
      "NightsBridge", "book.nightsbridge.com", "link", True,
      '<p><a class="button" href="https://book.nightsbridge.com/24517" target="_blank" rel="noopener">Book Online</a></p>'),
    E("lakesidelodgingmn", "Lakeside Rentals", "Brainerd, MN", "com", "en", "North America", "wordpress",
      "Hostaway", "lakesiderentals.holidayfuture.com", "link", True,
      '<a href="https://lakesiderentals.holidayfuture.com/listings" class="wp-block-button__link">Browse &amp; Book</a>'),
    E("tofinocedarcabins", "Cedar Cabins Tofino", "Tofino, BC", "ca", "en", "North America", "squarespace",
      "Checkfront", "cedarcabins.checkfront.com", "link", True,
      '<a href="https://cedarcabins.checkfront.com/reserve/?category_id=2&amp;start_date=" class="sqs-block-button-element">Reserve a cabin</a>'),
    E("horskydvur", "Penzion Horský dvůr", "Špindlerův Mlýn", "cz", "en", "Europe", "custom", "PenzionOnline",
      "rezervace.penzionline.cz", "link", False,
      '<a class="btn-rezervace" href="https://rezervace.penzionline.cz/p/horsky-dvur/?lang=cs">Rezervovat pobyt</a>',
      tagline="Krkonoše, Česko"),
    E("quintadoslouros", "Quinta dos Louros", "Sintra", "pt", "pt", "Europe", "wordpress", "GuestCentric",
      "secure.guestcentric.net", "link", True,
      '<a class="btn-reservar" href="https://secure.guestcentric.net/api/bg/book.php?apikey=8f2d61c0a3b94e7f&amp;s=default&amp;l=pt_PT" target="_blank">Reservar</a>'),
    E("hoflindenhof", "Hotel Lindenhof", "Bruges", "be", "fr", "Europe", "custom", "Cubilis",
      "booking.cubilis.eu", "link", True,
      '<a class="book" href="https://booking.cubilis.eu/check_availability.aspx?logisid=4512&amp;lang=fr">Réserver</a>'),
    E("coorgplantationstay", "Plantation Stay Coorg", "Madikeri", "in", "en", "Asia", "wordpress", "AxisRooms",
      "app.axisrooms.com", "link", True,
      '<a class="elementor-button" href="https://app.axisrooms.com/beV2/home.html?bookingEngineId=4211" target="_blank">Book Direct &amp; Save 10%</a>'),
    E("siargaosurflodge", "Cloud 9 Surf Lodge", "Siargao", "com.ph", "en", "Asia", "squarespace", "SiteMinder",
      "book-directonline.com", "link", True,
      '<a href="https://book-directonline.com/properties/cloud9surflodgedirect?locale=en&amp;currency=PHP" class="sqs-block-button-element--medium">Book your room</a>'),
    E("posadaantigua", "Posada Santa Catalina", "Antigua", "com.gt", "es", "Latin America", "wix", "Cloudbeds",
      "hotels.cloudbeds.com", "link", True,
      '<a class="wixui-button" href="https://hotels.cloudbeds.com/en/reservation/Gt7Hq2?currency=gtq" target="_blank">Reservar / Book</a>',
      final_url="https://www.posadaantigua.com.gt/"),
]

IFRAME = [
    E("bayviewmotelau", "Bayview Motel", "Merimbula, NSW", "com.au", "en", "Oceania", "wordpress", "RMS",
      "bookings.rmscloud.com", "iframe", True,
      '<iframe src="https://bookings.rmscloud.com/Search/Index/8374/90/" width="100%" height="900" frameborder="0" title="Online bookings"></iframe>'),
    E("agriturismopoggio", "Agriturismo Il Poggio", "Montepulciano", "it", "it", "Europe", "wordpress", "Octorate",
      "book.octorate.com", "iframe", True,
      '<iframe id="octorate" src="https://book.octorate.com/octobook/site/reservation/calendar.xhtml?codice=517382&amp;lang=IT" style="width:100%;height:780px;border:0"></iframe>'),
    E("kyotomachiya", "Machiya Inn Gion", "Kyoto", "jp", "en", "Asia", "custom", "Beds24", "beds24.com", "iframe",
      True,
      '<iframe src="https://beds24.com/booking2.php?propid=81234&amp;referer=iframe&amp;lang=ja" width="800" height="2000" style="max-width:100%;border:none;overflow:auto;"></iframe>'),
    E("seabreezeholidaypark", "Seabreeze Holiday Park", "Port Macquarie, NSW", "com.au", "en", "Oceania", "custom",
      "Newbook", "bookings.newbook.cloud", "iframe", True,
      '<iframe src="https://bookings.newbook.cloud/online/seabreezehp?embed=1" width="100%" height="1200" frameborder="0"></iframe>'),
    E("closfleuri", "Hôtel Le Clos Fleuri", "Annecy", "fr", "fr", "Europe", "wordpress", "D-Edge",
      "www.secure-hotel-booking.com", "iframe", True,
      '<iframe src="https://www.secure-hotel-booking.com/Hotel-Le-Clos-Fleuri/2J7K/fr/" width="100%" height="1000" frameborder="0" scrolling="auto"></iframe>'),
    E("palazzoorsini", "Palazzo Orsini B&amp;B", "Lecce", "it", "it", "Europe", "wix", "Kross Booking",
      "book.krossbooking.com", "iframe", True,
      '<wix-iframe><iframe title="Prenota" src="https://book.krossbooking.com/palazzoorsini/?lang=it" width="100%" height="900"></iframe></wix-iframe>'),
    E("posadadelvalle", "Posada del Valle", "Mendoza", "com.ar", "es", "Latin America", "custom", "Pxsol",
      "booking.pxsol.com", "iframe", False,
      '<iframe class="motor" src="https://booking.pxsol.com/posadadelvalle/es?embed=true" height="720" width="100%" frameborder="0"></iframe>'),
    E("chiangmaiteakhouse", "Teak House Chiang Mai", "Chiang Mai", "com", "en", "Asia", "wordpress", "Hotel Link",
      "ibe.hotellinksolutions.com", "iframe", False,
      '<iframe src="https://ibe.hotellinksolutions.com/en/teakhousecm/search" width="100%" height="950" style="border:0"></iframe>'),
    E("fjordtunet", "Fjordtunet Gjestehus", "Balestrand", "no", "en", "Europe", "squarespace", "Fjordbooking",
      "booking.fjordbooking.no", "iframe", False,
      '<div class="sqs-block code-block"><iframe src="https://booking.fjordbooking.no/embed/fjordtunet?lang=no" width="100%" height="760" loading="lazy"></iframe></div>'),
    E("wanakamotorlodge", "Wanaka Motor Lodge", "Wanaka", "co.nz", "en", "Oceania", "custom", "KiwiStay",
      "app.kiwistay.nz", "iframe", False,
      '<iframe src="https://app.kiwistay.nz/book/wanaka-motor-lodge/availability" width="100%" height="850" frameborder="0"></iframe>'),
    E("vitoshaboutique", "Vitosha Boutique Hotel", "Sofia", "bg", "en", "Europe", "custom", "Clock PMS",
      "sky-eu1.clock-software.com", "iframe", True,
      '<iframe src="https://sky-eu1.clock-software.com/spa/pms-wbe/#/hotel/10283?lang=en" width="100%" height="900"></iframe>'),
]

FORM = [
    E("harbourviewnsw", "Harbour View Apartments", "Port Stephens, NSW", "com.au", "en", "Oceania", "wordpress",
      "SiteMinder", "app.thebookingbutton.com", "form", True,
      '<form class="booking-bar" action="https://app.thebookingbutton.com/properties/harbourviewdirect" method="get" target="_blank">'
      '<input type="date" name="check_in_date"><input type="date" name="check_out_date">'
      '<select name="number_adults"><option>1</option><option selected>2</option></select><button type="submit">Check availability</button></form>'),
    E("banffmountaininn", "Mountain Inn Banff", "Banff, AB", "ca", "en", "North America", "custom", "WebRezPro",
      "secure.webrez.com", "form", True,
      '<form action="https://secure.webrez.com/hotel/2471/" method="post"><input type="hidden" name="lang" value="en">'
      '<label>Arrive <input type="text" class="datepicker" name="date_from"></label><label>Depart <input type="text" class="datepicker" name="date_to"></label>'
      '<label>Adults <input type="number" name="adults" value="2"></label><input type="submit" value="Search"></form>',
      footer=ota_footer("banffmountaininn", "ca")),
    E("thegablesyork", "The Gables Guest House", "York", "co.uk", "en", "Europe", "wordpress", "Freetobook",
      "portal.freetobook.com", "form", True,
      '<form id="f2b-search" action="https://portal.freetobook.com/reservations" method="get"><input type="hidden" name="w_id" value="18432">'
      '<input type="hidden" name="w_tkn" value="yDk4ZrT0aQ1Ub6nP2cJfE"><input type="date" name="checkIn"><select name="stayLength"><option value="1">1 night</option><option value="2">2 nights</option></select>'
      '<button>Book now</button></form>'),
    E("hotelvillaserena", "Hotel Villa Serena", "Riva del Garda", "it", "it", "Europe", "custom", "Vertical Booking",
      "reservations.verticalbooking.com", "form", True,
      '<form name="vb" action="https://reservations.verticalbooking.com/premium/index.html" method="get" target="_blank">'
      '<input type="hidden" name="id_stile" value="14215"><input type="hidden" name="id_albergo" value="21904"><input type="hidden" name="dc" value="8642">'
      '<input type="hidden" name="lingua_int" value="ita"><input name="gg" placeholder="gg"><input name="mm" placeholder="mm"><input name="aa" placeholder="aaaa">'
      '<input name="notti_1" value="1"><input name="tot_adulti" value="2"><button>Verifica disponibilità</button></form>'),
    E("pousadamaresia", "Pousada Maresia", "Paraty", "com.br", "pt", "Latin America", "wordpress", "Omnibees",
      "book.omnibees.com", "form", True,
      '<form action="https://book.omnibees.com/hotelresults" method="get" target="_blank"><input type="hidden" name="c" value="3421">'
      '<input type="hidden" name="q" value="7810"><input type="hidden" name="lang" value="pt-BR"><input name="CheckIn" placeholder="Check-in">'
      '<input name="CheckOut" placeholder="Check-out"><input name="ad" value="2"><button type="submit">Reservar</button></form>'),
    E("thewillardsavannah", "The Willard House", "Savannah, GA", "com", "en", "North America", "custom", "SynXis",
      "be.synxis.com", "form", True,
      '<form action="https://be.synxis.com/" method="get"><input type="hidden" name="hotel" value="62215"><input type="hidden" name="chain" value="27304">'
      '<input type="date" name="arrive"><input type="date" name="depart"><input type="number" name="adult" value="2"><input type="number" name="child" value="0">'
      '<button class="btn">Check Rates</button></form>'),
    E("hotellesalizes", "Hôtel Les Alizés", "Biarritz", "fr", "fr", "Europe", "wordpress", "Reservit",
      "secure.reservit.com", "form", True,
      '<form action="https://secure.reservit.com/fo/booking/2/183422/availability" method="get"><input type="hidden" name="hotelid" value="183422">'
      '<input type="hidden" name="langcode" value="FR"><input name="fday"><input name="fmonth"><input name="fyear"><input name="nbnights" value="1">'
      '<input name="nbadt" value="2"><button>Réserver</button></form>'),
    E("sunrisehaveli", "Sunrise Haveli", "Jaipur", "in", "en", "Asia", "custom", "eZee", "live.ipms247.com", "form",
      True,
      '<form method="get" action="https://live.ipms247.com/booking/book-rooms-sunrisehavelijaipur"><input type="text" name="checkin" class="date">'
      '<select name="nights"><option>1</option><option>2</option></select><input type="hidden" name="adults" value="2"><input type="submit" value="Book Now"></form>'),
    E("hostalmarinero", "Hostal Marinero", "Cádiz", "es", "es", "Europe", "wordpress", "Neobookings",
      "www.neobookings.com", "form", True,
      '<form action="https://www.neobookings.com/booking/hotel/hostal-marinero" method="get" target="_blank"><input name="entrada"><input name="salida">'
      '<input type="hidden" name="idioma" value="es"><input name="adultos" value="2"><button>Buscar</button></form>'),
    E("clonmoreh", "Clonmore House Hotel", "Kilkenny", "ie", "en", "Europe", "custom", "Bookassist",
      "booking.bookassist.org", "form", True,
      '<form action="https://booking.bookassist.org/ibe/rooms.jsp" method="get"><input type="hidden" name="hotel_id" value="5128">'
      '<input type="hidden" name="guide_id" value="1"><input name="arrival_date" type="date"><input name="num_nights" value="1"><button>Check availability</button></form>'),
    E("gasthofalpenblick", "Gasthof Alpenblick", "Zell am See", "at", "de", "Europe", "wordpress", "AlpenBuchung",
      "buchen.alpenbuchung.at", "form", False,
      '<form class="ab-maske" action="https://buchen.alpenbuchung.at/ibe/search" method="get"><input type="hidden" name="betrieb" value="alpenblick-zell">'
      '<label>Anreise <input type="date" name="anreise"></label><label>Abreise <input type="date" name="abreise"></label>'
      '<input type="number" name="erwachsene" value="2"><button>Verfügbarkeit prüfen</button></form>'),
    E("hotelcasonatulum", "Hotel Casona", "Tulum", "com.mx", "es", "Latin America", "wix", "ReservaHotel",
      "motor.reservahotel.mx", "form", False,
      '<form action="https://motor.reservahotel.mx/busqueda" method="post"><input type="hidden" name="hotel" value="casona-tulum">'
      '<input name="llegada" type="date"><input name="salida" type="date"><input name="adultos" value="2"><button>Reservar</button></form>'),
    E("casabugambilia", "Casa Bugambilia", "San Miguel de Allende", "com.mx", "es", "Latin America", "wordpress",
      "HBook", "www.casabugambilia.com.mx", "form", True,
      '<div class="hb-booking-search-form-wrapper"><form class="hb-booking-search-form" method="POST" data-search-only="no" '
      'data-page-accom-id="" data-booking-details-redirection="no" action="/reservar/"><p class="hb-check-dates-wrapper">'
      '<input type="text" class="hb-input hb-check-in-date" name="hb-check-in-date"><input type="text" class="hb-input hb-check-out-date" name="hb-check-out-date"></p>'
      '<select class="hb-adults" name="hb-adults"><option>1</option><option selected>2</option></select>'
      '<input type="submit" class="hb-search-button" value="Buscar"></form></div>',
      tail='<script src="https://www.casabugambilia.com.mx/wp-content/plugins/hbook/front-end/js/hbook.js?ver=2.0.8"></script>'),
    E("apartmanimarija", "Apartmani Marija", "Makarska", "hr", "en", "Europe", "wordpress",
      "MotoPress Hotel Booking", "www.apartmanimarija.hr", "form", True,
      '<div class="mphb_sc_search-wrapper"><form method="GET" class="mphb_sc_search-form" action="https://www.apartmanimarija.hr/search-results/">'
      '<input type="text" class="mphb-datepick" name="mphb_check_in_date" placeholder="Check-in"><input type="text" class="mphb-datepick" name="mphb_check_out_date" placeholder="Check-out">'
      '<select name="mphb_adults"><option>1</option><option selected>2</option></select><input type="submit" class="button" value="Search"></form></div>',
      tail='<script src="https://www.apartmanimarija.hr/wp-content/plugins/motopress-hotel-booking/assets/js/public/mphb.min.js?ver=4.8.7"></script>'),
]

SCRIPT_WIDGET = [
    E("stadshotelletvisby", "Stadshotellet", "Visby", "se", "en", "Europe", "wordpress", "Sirvoy",
      "secured.sirvoy.com", "script_widget", True,
      '<script async type="text/javascript" data-form-id="4f0b7a2e19c3" data-widget="booking" src="https://secured.sirvoy.com/widget/sirvoy.js"></script>'),
    E("casadelsolmalaga", "Casa del Sol", "Málaga", "es", "es", "Europe", "custom", "Lodgify", "app.lodgify.com",
      "script_widget", True,
      '<div id="lodgify-book-now-box" data-rental-id="287311" data-website-id="198455" data-slug="casadelsol" data-language-code="es" '
      'data-new-tab="true" data-version="stable" data-has-guests-breakdown></div>'
      '<script src="https://app.lodgify.com/book-now-box/stable/renderBookNowBox.js"></script>'),
    E("hotelalbaidasevilla", "Hotel Albaida", "Sevilla", "es", "es", "Europe", "custom", "Mirai",
      "static.mirai.com", "script_widget", True,
      '<div data-mirai-component="finder" data-mirai-id="100376521" data-mirai-lang="es"></div>'
      '<script type="module" src="https://static.mirai.com/core/index.js"></script>'),
    E("pousadamarazul", "Pousada Mar Azul", "Florianópolis", "com.br", "pt", "Latin America", "wordpress",
      "Asksuite", "cdn.asksuite.com", "script_widget", True,
      '<script src="https://cdn.asksuite.com/infochat.js?dataConfig=https://control.asksuite.com/api/companies/pousada-mar-azul" async></script>',
      no_chat="1"),
    E("ubudgardenvilla", "Ubud Garden Villa", "Ubud, Bali", "co.id", "en", "Asia", "custom", "Kamarku",
      "widget.kamarku.id", "script_widget", False,
      '<button class="kamarku-book" data-kamarku-property="ubud-garden-villa" data-kamarku-lang="id">Pesan Sekarang</button>'
      '<script src="https://widget.kamarku.id/v1/booking.js" defer></script>'),
    E("yunoyadoshiki", "Yunoyado Shiki", "Hakone", "jp", "en", "Asia", "custom", "YoyakuLink",
      "cdn.yoyaku-link.jp", "script_widget", False,
      '<div class="yl-search" data-yl-facility="HKN0342" data-yl-lang="ja"></div>'
      '<script charset="utf-8" src="https://cdn.yoyaku-link.jp/widget/search.js"></script>'),
    E("lodgeelcalafate", "Lodge Lago Azul", "El Calafate", "com.ar", "es", "Latin America", "wordpress", "AndesBook",
      "static.andesbook.cl", "script_widget", False,
      '<div id="andesbook-widget" data-hotel="lago-azul-calafate" data-moneda="ARS"></div>'
      '<script src="https://static.andesbook.cl/widget/v3/andesbook.min.js" async></script>'),
    E("vilamaslina", "Vila Maslina", "Hvar", "hr", "en", "Europe", "wix", "JadranBooking",
      "widget.jadranbooking.hr", "script_widget", False,
      '<div class="jb-booking" data-object-id="hv-1182" data-lang="en"></div>'
      '<script src="https://widget.jadranbooking.hr/loader.js?v=2"></script>'),
    E("kauriblissnz", "Kauri Bliss Lodge", "Paihia", "co.nz", "en", "Oceania", "wordpress", "STAAH",
      "bookings.staah.net", "script_widget", True,
      '<div id="staah-search" data-propid="10542" data-theme="light"></div>'
      '<script src="https://bookings.staah.net/widget/search-widget.js" async></script>'),
    E("goabeachresort", "Palm Grove Beach Resort", "Goa", "in", "en", "Asia", "wordpress", "Hotelogix",
      "book.hotelogix.com", "script_widget", True,
      '<div id="hx-be-widget" data-hotel="palmgrovegoa" data-currency="INR"></div>'
      '<script type="text/javascript" src="https://book.hotelogix.com/widget/hxwidget.js"></script>'),
    E("hotelschwarzhorn", "Hotel Schwarzhorn", "Kastelruth", "it", "de", "Europe", "wordpress", "Bookingsüdtirol",
      "www.bookingsuedtirol.com", "script_widget", True,
      '<div id="bs-widget" data-bs-id="8812" data-lang="de"></div>'
      '<script src="https://www.bookingsuedtirol.com/widget/loader.js"></script>'),
    E("trattoriecamere", "Locanda del Borgo", "Bergamo", "it", "it", "Europe", "custom", "RoomCloud",
      "booking.roomcloud.net", "script_widget", True,
      '<div class="roomcloud-widget" data-hotel="10223" data-lang="it"></div>'
      '<script src="https://booking.roomcloud.net/be/widget/rcwidget.js" async></script>'),
]

PAGES = LINK + IFRAME + FORM + SCRIPT_WIDGET

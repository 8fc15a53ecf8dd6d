"""Engine pages of held-out set C: Europe and the Middle East. Hosts and paths written from memory of how
small hotels' sites show these engines; where unsure, a plausible one (the label records what is on the page).
Fictional-but-plausible regional engines: CazareRez, AlojaLusa, KroBook, MalonBook, FunduqRes, MaskanBook,
BaytRes."""

from __future__ import annotations

from entry_c import E

PAGES = [
    E("penzion-u-zlateho-klice", "Penzion U Zlatého klíče", "Český Krumlov", "CZ", "cz", "cs", "Europe", "wordpress-astra",
      "Previo", "booking.previo.cz", "link", True,
      '<a class="btn btn-book" href="https://booking.previo.cz/?hotId=731245&amp;currency=CZK&amp;lang=cs" target="_blank" rel="noopener">Rezervovat pokoj</a>\n'
      '<p class="hint">Nejlepší cena při rezervaci přímo u nás · snídaně v ceně</p>',
      nav_extra='<li class="menu-item menu-book"><a href="https://booking.previo.cz/?hotId=731245&amp;lang=cs">Rezervace</a></li>'),
    E("szenator-haz-eger", "Szenátor Ház", "Eger", "HU", "hu", "hu", "Europe", "joomla",
      "SabeeApp", "ibe.sabeeapp.com", "iframe", True,
      '<h2>Foglalás</h2>\n<iframe id="sabee-ibe" src="https://ibe.sabeeapp.com/properties/Szenator-Haz-booking/?p=bSp3a9f1c2d0e&amp;lang=hu" '
      'width="100%" height="900" frameborder="0" scrolling="auto" title="Szobafoglalás"></iframe>'),
    E("hotel-lindenhof-leipzig", "Hotel Lindenhof", "Leipzig", "DE", "de", "de", "Europe", "typo3",
      "Hotelfriend", "widget.hotelfriend.com", "script_widget", False,
      '<div id="hf-booking-widget" class="hf-widget" data-hotel-id="41877" data-lang="de" data-currency="EUR"></div>\n'
      '<script async src="https://widget.hotelfriend.com/v2/booking-widget.js"></script>'),
    E("wisby-strandgard", "Wisby Strandgård", "Visby", "SE", "se", "sv", "Europe", "squarespace",
      "Bookvisit", "online.bookvisit.com", "form", True,
      '<form class="booking-bar" action="https://online.bookvisit.com/accommodation/list" method="get" target="_blank">\n'
      '<input type="hidden" name="channelId" value="4c9e1d2a-7b3f-4a8e-9d51-0f2e6b7c8a13">\n'
      '<label>Ankomst <input type="date" name="period.arrival"></label>\n<label>Avresa <input type="date" name="period.departure"></label>\n'
      '<label>Vuxna <select name="room[0].adults"><option>1</option><option selected>2</option><option>3</option></select></label>\n'
      '<label>Barn <select name="room[0].children"><option>0</option><option>1</option><option>2</option></select></label>\n'
      '<button type="submit">Sök lediga rum</button>\n</form>'),
    E("reine-rorbuer", "Reine Rorbuer & Sjøhus", "Reine, Lofoten", "NO", "no", "en", "Europe", "webflow",
      "Visbook", "reservations.visbook.com", "widget_init", False,
      '<div id="visbook-search" class="vb-search"></div>\n'
      '<script src="https://reservations.visbook.com/static/js/vb-searchbox.js"></script>\n'
      '<script>document.addEventListener("DOMContentLoaded",function(){VisBook.SearchBox.init({enterpriseId:6604,'
      'container:"#visbook-search",language:"en",currency:"NOK",openInNewWindow:true});});</script>'),
    E("casa-del-levante-tarifa", "Casa del Levante", "Tarifa", "ES", "es", "es", "Europe", "wordpress",
      "Witbooking", "www.witbooking.com", "js_string", True,
      '<div class="motor-reservas"><label>Llegada <input type="text" id="llegada" class="datepicker" readonly></label>'
      '<label>Salida <input type="text" id="salida" class="datepicker" readonly></label>'
      '<label>Adultos <select id="adultos"><option>1</option><option selected>2</option><option>3</option><option>4</option></select></label>'
      '<button type="button" id="btn-reservar">Reservar</button></div>\n'
      '<script>jQuery(function($){$("#btn-reservar").on("click",function(){var base="https://www.witbooking.com/es/casa-del-levante-tarifa/";'
      'var q="?checkin="+encodeURIComponent($("#llegada").val())+"&checkout="+encodeURIComponent($("#salida").val())+"&adults="+$("#adultos").val();'
      'window.open(base+q,"_blank");});});</script>'),
    E("ty-ar-mor-crozon", "Ty Ar Mor", "Crozon", "FR", "fr", "fr", "Europe", "wix",
      "Elloha", "reservation.elloha.com", "script_unusual_path", False,
      '<div id="elloha-be-container" class="resa-bloc"><p>Réservez en direct, meilleur tarif garanti</p></div>\n'
      '<script type="text/javascript" src="https://reservation.elloha.com/Scripts/Integration/ConstellationWidget.min.js?v=5.2" '
      'data-ce-key="b7f3a1e0-55c2-4d7e-8a1b-2f6c9e0d4a71" data-ce-container="elloha-be-container" data-ce-culture="fr-FR"></script>'),
    E("dingle-harbour-lodge", "Dingle Harbour Lodge", "Dingle", "IE", "ie", "en", "Europe", "wordpress-avada",
      "Net Affinity", "bookings.netaffinity.com", "form", True,
      '<form id="na-booking" class="booking-form" method="get" action="https://bookings.netaffinity.com/booking/dingleharbourlodge/availability">\n'
      '<input type="hidden" name="hotelId" value="1187"><label>Arrival <input type="date" name="arrivalDate"></label>\n'
      '<label>Nights <select name="nights"><option>1</option><option selected>2</option><option>3</option><option>4</option></select></label>\n'
      '<label>Adults <select name="adults"><option>1</option><option selected>2</option></select></label>\n<button>Check Availability</button></form>'),
    E("kilkenny-rivercourt-house", "Rivercourt House", "Kilkenny", "IE", "ie", "en", "Europe", "custom",
      "Avvio", "secure.avvio.com", "link", True,
      '<a class="book-now" href="https://secure.avvio.com/convert/site/Rivercourt%20House/en/results.php?hotelId=8812&amp;currency=EUR" target="_blank">Book Now</a>\n'
      '<a class="offers" href="/special-offers/">Special Offers</a>'),
    E("trevose-cottages", "Trevose Cottages", "Padstow", "GB", "co.uk", "en", "Europe", "squarespace",
      "Bookalet", "widgets.bookalet.co.uk", "script_widget", False,
      '<h2>Check availability</h2>\n<div class="bookalet-widget" data-owner="2291" data-property="8734" data-type="calendar" data-months="3"></div>\n'
      '<script src="https://widgets.bookalet.co.uk/widgets/1.0/bookalet-widgets.js" defer></script>'),
    E("albergo-la-limonaia-limone", "Albergo La Limonaia", "Limone sul Garda", "IT", "it", "it", "Europe", "wordpress-divi",
      "Slope", "booking.slope.it", "iframe", False,
      '<iframe class="be-frame" src="https://booking.slope.it/it/albergo-la-limonaia/availability?adults=2&amp;embed=1" '
      'style="width:100%;min-height:780px;border:0" title="Prenota online"></iframe>'),
    E("villa-baltica-sopot", "Willa Baltica", "Sopot", "PL", "pl", "pl", "Europe", "wordpress",
      "Hotres", "panel.hotres.pl", "form", False,
      '<form class="rezerwacja" action="https://panel.hotres.pl/v4_step1" method="post" target="_blank">\n'
      '<input type="hidden" name="oid" value="2318"><input type="hidden" name="lang" value="pl">\n'
      '<label>Przyjazd <input type="date" name="data_przyjazdu"></label><label>Wyjazd <input type="date" name="data_wyjazdu"></label>\n'
      '<label>Dorośli <input type="number" name="dorosli" value="2" min="1"></label><label>Dzieci <input type="number" name="dzieci" value="0" min="0"></label>\n'
      '<button type="submit">Sprawdź dostępność</button></form>'),
    E("mas-des-oliviers-gordes", "Le Mas des Oliviers", "Gordes", "FR", "fr", "fr", "Europe", "wordpress-astra",
      "Misterbooking", "www.misterbooking.net", "js_string", False,
      '<a href="#" class="btn-resa" id="resa-top">Réserver</a>\n'
      '<script>var MB_CONF={hotel:"masdesoliviers",lang:"fr",url:"https://www.misterbooking.net/fr/reservation/masdesoliviers/"};'
      'document.getElementById("resa-top").addEventListener("click",function(e){e.preventDefault();window.location.href=MB_CONF.url+"?arrivee="+(window.arrivee||"");});</script>'),
    E("pensiunea-casa-bran", "Pensiunea Casa Bran", "Bran", "RO", "ro", "ro", "Europe", "hostinger",
      "CazareRez", "rezervari.cazarerez.ro", "custom_element", False,
      '<script type="module" src="https://rezervari.cazarerez.ro/componente/motor-rezervari.js"></script>\n'
      '<cazare-rezervare unitate="casa-bran-2219" limba="ro" moneda="RON" culoare="#7a3e1d"></cazare-rezervare>'),
    E("casa-do-largo-tavira", "Casa do Largo", "Tavira", "PT", "pt", "pt", "Europe", "site123",
      "AlojaLusa", "reservas.alojalusa.pt", "form", False,
      '<form action="https://reservas.alojalusa.pt/reservar/casa-do-largo" method="get" class="reserva">\n'
      '<label>Data de entrada <input type="date" name="data_entrada"></label><label>Data de saída <input type="date" name="data_saida"></label>\n'
      '<label>Adultos <input type="number" name="adultos" value="2"></label><label>Crianças <input type="number" name="criancas" value="0"></label>\n'
      '<button type="submit">Reservar agora</button></form>'),
    E("ribe-gamle-kro", "Ribe Gamle Kro", "Ribe", "DK", "dk", "da", "Europe", "godaddy",
      "KroBook", "bestil.krobook.dk", "link", False,
      '<a class="button" href="https://bestil.krobook.dk/ribe-gamle-kro/vaerelser?sprog=da">Book værelse</a>\n'
      '<a class="button secondary" href="/selskaber/">Selskaber &amp; fester</a>'),
    # Middle East
    E("alfanar-suites-dubai", "Al Fanar Boutique Suites", "Dubai", "AE", "ae", "en", "Middle East", "wordpress",
      "Simplotel", "bookings.simplotel.com", "js_string", True,
      '<button class="btn-gold" onclick="openBooking()">Book Your Stay</button>\n'
      '<script>function openBooking(){var d=document.getElementById("bk-date")?document.getElementById("bk-date").value:"";'
      'window.open("https://bookings.simplotel.com/alfanarsuites/?checkin="+d+"&nights=1&adults=2","_blank");}</script>',
      currency="AED"),
    E("tzimer-nof-hagalil", "צימר נוף הגליל", "Rosh Pina", "IL", "co.il", "he", "Middle East", "wix",
      "MalonBook", "hazmana.malonbook.co.il", "form", False,
      '<form dir="rtl" class="hazmana" action="https://hazmana.malonbook.co.il/search" method="get">\n'
      '<input type="hidden" name="nechas" value="nof-hagalil-318">\n'
      '<label>תאריך כניסה <input type="date" name="taarich_knisa"></label><label>תאריך יציאה <input type="date" name="taarich_yetzia"></label>\n'
      '<label>מבוגרים <input type="number" name="mevugarim" value="2"></label><label>ילדים <input type="number" name="yeladim" value="0"></label>\n'
      '<button type="submit">בדיקת זמינות והזמנה</button></form>',
      domain="nof-hagalil.co.il", currency="₪"),
    E("dana-guesthouse-wadi-musa", "دار دانا للضيافة", "Wadi Musa, Petra", "JO", "jo", "ar", "Middle East", "custom",
      "FunduqRes", "hajz.funduqres.jo", "iframe", False,
      '<h3>احجز الآن</h3>\n<iframe src="https://hajz.funduqres.jo/ar/hotel/dar-dana-petra?embed=true" width="100%" height="720" '
      'style="border:none" title="الحجز المباشر"></iframe>',
      domain="dardana-petra.jo", currency="JOD"),
    E("nizwa-heritage-inn", "Nizwa Heritage Inn", "Nizwa", "OM", "om", "en", "Middle East", "squarespace",
      "MaskanBook", "booking.maskanbook.om", "widget_init", False,
      '<div id="mb-search"></div>\n<script src="https://booking.maskanbook.om/sdk/v1/maskan.js"></script>\n'
      '<script>Maskan.init({property:"NZW-HERITAGE",el:"#mb-search",lang:"en",currency:"OMR"});</script>',
      currency="OMR"),
    E("beit-el-batroun", "Beit El Batroun", "Batroun", "LB", "com.lb", "ar", "Middle East", "wordpress-astra",
      "BaytRes", "ihjez.baytres.com.lb", "script_widget", False,
      '<div class="baytres-widget" data-property="beit-el-batroun" data-lang="ar"></div>\n'
      '<script async src="https://ihjez.baytres.com.lb/widget/loader.js"></script>',
      currency="$"),
]

"""Engine pages, Europe (set B). Hosts are written as hotels' sites show them, from memory."""

from entry_b import E

OTA = ('<p class="also-on">Auch auf <a href="https://www.booking.com/hotel/{cc}/{s}.html" rel="nofollow">Booking.com</a> · '
       '<a href="https://www.holidaycheck.de/hi/{s}/{n}" rel="nofollow">HolidayCheck</a></p>')

PAGES = [
    E("villaseleni", "Villa Seleni Suites", "Imerovigli, Santorini", "GR", "gr", "el", "Europe", "wordpress-divi",
      "WebHotelier", "villaseleni.reserve-online.net", "link", True,
      '<a class="et_pb_button et_pb_bg_layout_dark book-btn" href="https://villaseleni.reserve-online.net/?lang=en" '
      'target="_blank" rel="noopener">Κράτηση / Book now</a>\n<p class="best-rate">Best rate guaranteed when you book direct</p>',
      footer='<p>MHTE 1167K123K0456700</p>'),
    E("mavikoybutik", "Mavi Köy Butik Otel", "Gümüşlük, Bodrum", "TR", "com.tr", "tr", "Europe", "custom",
      "Elektraweb", "bookingengine.elektraweb.com", "script_unusual_path", False,
      '<div id="elektra-search" class="reservation-bar" data-hotel-id="20731" data-lang="tr"></div>\n'
      '<script src="https://bookingengine.elektraweb.com/assets/integration/v3/search-bar.bundle.js?v=3.8.2" defer></script>',
      footer='<p>TÜRSAB Belge No: 14532 · <a href="https://www.tatilsepeti.com/mavi-koy-butik-otel" rel="nofollow">Tatilsepeti</a></p>'),
    E("gasthof-alpenrose-tux", "Gasthof Alpenrose", "Tux, Tirol", "AT", "at", "de", "Europe", "joomla",
      "Feratel Deskline", "webclient4.deskline.net", "iframe", True,
      '<h3>Verfügbarkeit prüfen &amp; online buchen</h3>\n'
      '<iframe id="dw-frame" src="https://webclient4.deskline.net/TUX/de/accommodation/detail/TUX/5c4a7b9e-22d1-4e0b-9a57-0f13c2d8e911/gasthof-alpenrose?selectedTab=roomsAndPrices" '
      'width="100%" height="1400" frameborder="0" scrolling="auto" title="Online buchen"></iframe>',
      footer=OTA.format(cc="at", s="gasthof-alpenrose-tux", n="1a2b")),
    E("pension-bergblick-flachau", "Pension Bergblick", "Flachau", "AT", "at", "de", "Europe", "wordpress",
      "easybooking", "app.easybooking.at", "widget_init", False,
      '<div id="eb-searchbar"></div>\n<script>\n  (function(d){var s=d.createElement("script");s.async=true;'
      's.src="https://app.easybooking.at/widget/v2/loader.js";s.onload=function(){\n'
      '    EasyBookingWidget.init({organization: 4711, locale: "de", target: "#eb-searchbar", mode: "searchbar", currency: "EUR"});\n'
      '  };d.head.appendChild(s);})(document);\n</script>'),
    E("strandperle-binz", "Hotel Strandperle", "Ostseebad Binz", "DE", "de", "de", "Europe", "wordpress-divi",
      "DIRS21", "www.dirs21.de", "form", True,
      '<form class="quickbooker" action="https://www.dirs21.de/nbe/ibe/strandperle-binz" method="get" target="_blank">\n'
      '<label>Anreise <input type="date" name="arrival" value="2025-07-12"></label>\n'
      '<label>Abreise <input type="date" name="departure" value="2025-07-15"></label>\n'
      '<label>Erwachsene <select name="adults"><option>1</option><option selected>2</option><option>3</option></select></label>\n'
      '<input type="hidden" name="lang" value="de"><button type="submit" class="et_pb_button">Jetzt buchen</button></form>',
      footer=OTA.format(cc="de", s="strandperle-binz", n="9f3c")),
    E("hotel-edelweiss-saasfee", "Hotel Edelweiss", "Saas-Fee", "CH", "ch", "de", "Europe", "custom",
      "Hotel-Spider", "www.hotel-spider.com", "script_widget", False,
      '<div class="hs-booking-widget" data-hotel-id="HS-1845" data-language="de" data-theme="light"></div>\n'
      '<script type="text/javascript" src="https://www.hotel-spider.com/widget/booking/js/hsw.min.js" async></script>'),
    E("hotelazzurrarimini", "Hotel Azzurra", "Rimini Marina Centro", "IT", "it", "it", "Europe", "wordpress",
      "Ericsoft", "booking.ericsoft.com", "link", False,
      '<a class="elementor-button elementor-size-md" href="https://booking.ericsoft.com/BookingEngine/Book?idh=4E1B8C72A1D0F3" '
      'target="_blank" rel="noopener"><span class="elementor-button-text">Prenota ora</span></a>\n'
      '<p>Offerte all inclusive per famiglie · Parcheggio gratuito</p>',
      footer='<p>P.IVA 03412980409 · CIN IT099014A1XYZ12345</p>'),
    E("palazzoverdifirenze", "Palazzo Verdi Residenza d'Epoca", "Firenze", "IT", "com", "it", "Europe", "custom",
      "Blastness", "www.blastnessbooking.com", "form", False,
      '<form name="prenota" action="https://www.blastnessbooking.com/reservations/risultato.html" method="get" target="_blank">\n'
      '<input type="hidden" name="id_albergo" value="7341"><input type="hidden" name="dc" value="2261"><input type="hidden" name="lingua_int" value="ita">\n'
      '<select name="gg"><option>14</option></select><select name="mm"><option>06</option></select><select name="aa"><option>2025</option></select>\n'
      '<select name="notti_1"><option>2</option></select><select name="tot_adulti"><option>2</option></select>\n'
      '<input type="submit" value="Verifica disponibilità"></form>'),
    E("landgoed-de-heidehoeve", "Landgoed De Heidehoeve", "Ede, Veluwe", "NL", "nl", "nl", "Europe", "wordpress",
      "Booking Experts", "heidehoeve.bookingexperts.nl", "js_string", False,
      '<button type="button" class="btn btn-primary js-book">Direct boeken</button>\n'
      '<script>\n  var BOOKING_CHANNEL = "https://heidehoeve.bookingexperts.nl/nl/search";\n'
      '  document.querySelectorAll(".js-book").forEach(function(b){b.addEventListener("click",function(){\n'
      '    var q = new URLSearchParams({start_date: window.arr || "", end_date: window.dep || ""});\n'
      '    window.location.href = BOOKING_CHANNEL + "?" + q.toString();\n  });});\n</script>',
      schema="Campground"),
    E("pension-am-markt-quedlinburg", "Pension Am Markt", "Quedlinburg", "DE", "de", "de", "Europe", "jimdo",
      "ibelsa", "booking.ibelsa.com", "link", False,
      '<div class="j-module n j-text"><p>Zimmer anfragen und buchen:</p></div>\n'
      '<a class="j-calltoaction-link j-calltoaction-link-style-1" href="https://booking.ibelsa.com/pension-am-markt-quedlinburg/de" target="_blank">Online buchen</a>'),
    E("willa-pod-giewontem", "Willa pod Giewontem", "Zakopane", "PL", "pl", "pl", "Europe", "wordpress",
      "KwateraPro", "silnik.kwaterapro.pl", "custom_element", False,
      '<script type="module" src="https://silnik.kwaterapro.pl/static/elements/kp-elements.js"></script>\n'
      '<kp-booking-bar obiekt="2281" jezyk="pl" waluta="PLN" przycisk="Rezerwuj online"></kp-booking-bar>',
      currency="PLN"),
    E("penzion-sokol-tatry", "Penzión Sokol", "Ždiar, Vysoké Tatry", "SK", "sk", "sk", "Europe", "custom",
      "TatraRes", "rezervacie.tatrares.sk", "js_string", False,
      '<a href="#" class="btn-rezervacia" onclick="otvorRezervaciu(); return false;">Rezervovať pobyt</a>\n'
      '<script>\nfunction otvorRezervaciu(){\n  var u = \'https://rezervacie.tatrares.sk/objekt/penzion-sokol?lang=sk\';\n'
      '  window.open(u, \'rez\', \'width=1000,height=800\');\n}\n</script>'),
    E("villa-bikaver-eger", "Villa Bikavér Panzió", "Eger", "HU", "hu", "hu", "Europe", "wordpress-divi",
      "SzállásMotor", "foglalas.szallasmotor.hu", "form", False,
      '<form method="post" action="https://foglalas.szallasmotor.hu/hu/szallas/villa-bikaver/kereses" class="foglalas-form">\n'
      '<input type="text" name="erkezes" placeholder="Érkezés" class="datepicker"> <input type="text" name="tavozas" placeholder="Távozás" class="datepicker">\n'
      '<select name="felnott"><option value="2">2 felnőtt</option></select><select name="gyerek"><option value="0">0 gyerek</option></select>\n'
      '<button type="submit">Szabad szobák keresése</button></form>', currency="HUF"),
    E("kelohovi-saariselka", "Kelohovi Lodge", "Saariselkä", "FI", "fi", "fi", "Europe", "wix",
      "Huonevaraus", "varaa.huonevaraus.fi", "link", False,
      '<div class="wixui-button" data-testid="linkElement"><a data-testid="linkElement" href="https://varaa.huonevaraus.fi/kelohovi?kieli=fi" target="_blank" class="StylableButton2545352419__root wixui-button" aria-label="Varaa nyt"><span class="StylableButton2545352419__label wixui-button__label">Varaa nyt</span></a></div>'),
    E("bnb-het-zwin-brugge", "B&amp;B Het Zwin", "Brugge", "BE", "be", "nl", "Europe", "squarespace",
      "BnbMotor", "boeken.bnbmotor.be", "iframe", False,
      '<div class="sqs-block code-block sqs-block-code" data-block-type="23"><div class="sqs-block-content">'
      '<iframe src="https://boeken.bnbmotor.be/kalender/het-zwin?taal=nl&amp;kleur=2b4c7e" style="width:100%;height:640px;border:0" title="Beschikbaarheid"></iframe>'
      '</div></div>', schema="BedAndBreakfast"),
    E("theredlionbrampton", "The Red Lion Inn", "Brampton, Cumbria", "GB", "co.uk", "en", "Europe", "wordpress",
      "Caterbook", "www.caterbook.net", "link", False,
      '<a class="elementor-button" href="https://www.caterbook.net/redlionbrampton/rooms" target="_blank">Book a room</a> '
      '<a class="elementor-button alt" href="https://www.opentable.co.uk/r/the-red-lion-brampton" target="_blank">Book a table</a>',
      schema="BedAndBreakfast", currency="£"),
    E("porthkerrishouse", "Porthkerris House", "St Ives, Cornwall", "GB", "co.uk", "en", "Europe", "squarespace",
      "The Booking Factory", "porthkerrishouse.thebookingfactory.com", "iframe", False,
      '<div class="sqs-block embed-block"><div class="intrinsic"><iframe src="https://porthkerrishouse.thebookingfactory.com/booking/search?embedded=1" '
      'width="100%" height="900" frameborder="0" allowtransparency="true"></iframe></div></div>', currency="£"),
    E("hotelsonfuster-soller", "Hotel Son Fuster", "Sóller, Mallorca", "ES", "com", "es", "Europe", "custom",
      "Hotetec", "booking.hotetec.com", "form", False,
      '<form id="motor" action="https://booking.hotetec.com/soller-sonfuster/disponibilidad" method="get">\n'
      '<input type="hidden" name="idioma" value="es"><input name="fechaEntrada" type="text" value="15/06/2025"> '
      '<input name="fechaSalida" type="text" value="19/06/2025"> <select name="adultos"><option>2</option></select> '
      '<select name="ninos"><option>0</option></select> <button>Reservar</button></form>'),
    E("hotelnarikala-tbilisi", "Narikala Boutique Hotel", "Tbilisi", "GE", "ge", "en", "Europe", "custom",
      "OTELMS", "otelms.com", "widget_init", False,
      '<div id="otelms-booking"></div>\n<script src="https://otelms.com/booking/js/booking-widget.js"></script>\n'
      '<script>OtelmsBooking.init({hotelId: "7f3a21", lang: "en", container: "otelms-booking", currency: "GEL"});</script>',
      currency="₾"),
    E("residenceiulivi-garda", "Residence I Ulivi", "Malcesine, Lago di Garda", "IT", "it", "it", "Europe", "joomla",
      "VikBooking", "www.residenceiulivi.it", "form", False,
      '<div class="vbo-search-module"><form action="/index.php?option=com_vikbooking&amp;task=search&amp;Itemid=118" method="post">\n'
      '<input type="hidden" name="option" value="com_vikbooking"><input type="hidden" name="task" value="search">\n'
      '<label>Arrivo</label><input type="text" name="checkindate" id="checkindate" class="vbo-datepicker"> '
      '<label>Partenza</label><input type="text" name="checkoutdate" id="checkoutdate" class="vbo-datepicker">\n'
      '<input type="hidden" name="roomsnum" value="1"><select name="adults[]"><option>2</option></select>'
      '<button type="submit" class="btn vbo-search-btn">Cerca disponibilità</button></form></div>\n'
      '<script src="/components/com_vikbooking/resources/vikbooking.js?v=1.16.6"></script>',
      domain="residenceiulivi.it"),
]

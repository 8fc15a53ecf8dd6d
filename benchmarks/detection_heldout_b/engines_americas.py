"""Engine pages, North and Latin America (set B)."""

from entry_b import E

US_OTA = ('<p class="find-us-on">Also find us on <a href="https://www.expedia.com/{s}.h{n}.Hotel-Information" rel="nofollow">Expedia</a>'
          ' and <a href="https://www.tripadvisor.com/Hotel_Review-g{n}-{s}.html" rel="nofollow">Tripadvisor</a></p>')

PAGES = [
    E("maplehollowinn", "Maple Hollow Inn", "Stowe, Vermont", "US", "com", "en", "North America", "wordpress",
      "innRoad", "booking.innroad.com", "link", True,
      '<a href="https://booking.innroad.com/bookingengine/?propertyId=1738&amp;arrivalDate=&amp;departureDate=" '
      'class="elementor-button-link elementor-button" target="_blank">Check Availability</a>',
      currency="$", footer=US_OTA.format(s="Maple_Hollow_Inn", n="57412")),
    E("captainsquartersbandb", "Captain's Quarters B&amp;B", "Kennebunkport, Maine", "US", "com", "en", "North America",
      "godaddy", "BookingCenter", "secure.bookingcenter.com", "iframe", True,
      '<div data-ux="Block" class="x-el x-el-div"><iframe src="https://secure.bookingcenter.com/booking/bcbook.php?site=CAPTQTR&amp;code=public" '
      'width="100%" height="1100" frameborder="0" title="Reservations"></iframe></div>', currency="$",
      schema="BedAndBreakfast"),
    E("willowcreekfarmstay", "Willow Creek Farm Stay", "Hermann, Missouri", "US", "com", "en", "North America", "weebly",
      "Webervations", "www.webervations.com", "link", False,
      '<div class="wsite-button-wrap"><a class="wsite-button wsite-button-large wsite-button-highlight" '
      'href="https://www.webervations.com/willowcreek/" target="_blank"><span class="wsite-button-inner">Make a Reservation</span></a></div>',
      currency="$"),
    E("silverpinelodge", "Silver Pine Lodge", "Breckenridge, Colorado", "US", "com", "en", "North America", "custom",
      "Inntopia", "cdn.inntopia.travel", "script_unusual_path", False,
      '<div id="inntopia-search" data-salesid="8412" data-supplierid="192" data-mode="lodging"></div>\n'
      '<script src="https://cdn.inntopia.travel/ecomm/widgets/lodging-searchbar/v4/searchbar.bundle.js"></script>',
      currency="$"),
    E("pineridgemotelmt", "Pine Ridge Motel &amp; Cabins", "Whitefish, Montana", "US", "com", "en", "North America",
      "godaddy", "Firefly Reservations", "app.fireflyreservations.com", "iframe", False,
      '<iframe src="https://app.fireflyreservations.com/Reserve/Property/PINERIDGEMT" style="width:100%;min-height:900px;border:none" title="Book online"></iframe>',
      currency="$", schema="Motel"),
    E("outerbanksbeachhouses", "Outer Banks Beach Houses", "Nags Head, North Carolina", "US", "com", "en",
      "North America", "wordpress", "Hostfully", "platform.hostfully.com", "widget_init", True,
      '<div id="leadWidget"></div>\n<script src="https://platform.hostfully.com/assets/js/leadCaptureWidget_2.0.js"></script>\n'
      '<script>new Widget("leadWidget", "8a3d2e77-41f0-4d1c-9e0a-2c4b8b1f6d55", {"type":"agency","fields":["search","guests"],"showAvailability":true,"lang":"US","minStay":true,"price":true,"cc":false,"emailClient":false,"saveCookie":true,"showDynamicMinStay":true,"backgroundColor":"#FFFFFF","buttonSubmit":{"backgroundColor":"#1e5a7a"},"showPriceDetailsLink":false,"showGetQuoteLink":false,"labelColor":"#55565b","showTotalWithoutSD":true,"redirectURL":false,"showDiscount":true,"aid":"ORB-52211","clickID":"","valuesByDefaults":{"checkIn":{"value":""},"checkOut":{"value":""},"guests":{"value":""},"discountCode":{"value":""}},"pathRoot":"https://platform.hostfully.com/"});</script>',
      currency="$", schema="LodgingBusiness"),
    E("muskokashoresresort", "Muskoka Shores Resort", "Bracebridge, Ontario", "CA", "ca", "en", "North America",
      "drupal", "Maestro PMS", "reservations.maestropms.com", "form", True,
      '<form action="https://reservations.maestropms.com/Muskokashores/search" method="get" class="booking-widget">\n'
      '<input type="date" name="arrival"> <input type="date" name="departure"> <select name="adults"><option>2</option></select>'
      '<select name="children"><option>0</option></select> <input type="text" name="promo" placeholder="Promo code">\n'
      '<button type="submit">Search rates</button></form>', currency="CA$"),
    E("aubergedufjord", "Auberge du Fjord", "Tadoussac, Québec", "CA", "ca", "fr", "North America", "wix",
      "AubergePlus", "reservation.aubergeplus.ca", "custom_element", False,
      '<script src="https://reservation.aubergeplus.ca/composants/v1/ap-reserver.js" defer></script>\n'
      '<ap-reserver etablissement="aubergedufjord" langue="fr" couleur="#274b6d">Réserver en ligne</ap-reserver>',
      currency="CA$"),
    E("pinelakeresortmi", "Pine Lake Resort &amp; Cabins", "Cadillac, Michigan", "US", "com", "en", "North America",
      "webflow", "Campspot", "www.campspot.com", "link", True,
      '<a href="https://www.campspot.com/book/pinelakeresortmi" class="button-primary w-button" target="_blank">Book a cabin or site</a>',
      currency="$", schema="Campground"),
    E("kenaifjordslodge", "Kenai Fjords Lodge", "Seward, Alaska", "US", "com", "en", "North America", "squarespace",
      "MooseRes", "book.mooseres.com", "widget_init", False,
      '<div class="sqs-block code-block"><div id="mr-book"></div>\n'
      '<script>window.MooseRes=window.MooseRes||[];MooseRes.push(["init",{lodge:"kenai-fjords",el:"#mr-book",nights:2}]);'
      '(function(){var s=document.createElement("script");s.src="https://book.mooseres.com/embed.js";document.body.appendChild(s);})();</script></div>',
      currency="$"),
    E("pousadaparatyverde", "Pousada Paraty Verde", "Paraty, RJ", "BR", "com.br", "pt", "Latin America", "wordpress",
      "Letsbook", "reservas.letsbook.com.br", "form", False,
      '<form action="https://reservas.letsbook.com.br/pousadaparatyverde/busca" method="get" target="_blank" class="motor-reservas">\n'
      '<input type="text" name="checkin" placeholder="Check-in" class="datepicker"> <input type="text" name="checkout" placeholder="Check-out" class="datepicker"> '
      '<select name="adultos"><option>2</option></select> <button type="submit">Reservar</button></form>',
      currency="R$", schema="BedAndBreakfast"),
    E("lagartixahostel", "Lagartixa Hostel", "Florianópolis, SC", "BR", "com.br", "pt", "Latin America", "wix",
      "HQBeds", "hqbeds.com.br", "link", False,
      '<a data-testid="linkElement" href="https://hqbeds.com.br/lagartixahostel" target="_blank" class="wixui-button">'
      '<span class="wixui-button__label">Reserve sua cama</span></a>', currency="R$", schema="Hostel"),
    E("hotelserradogramado", "Hotel Serra do Gramado", "Gramado, RS", "BR", "com.br", "pt", "Latin America", "custom",
      "Silbeck", "reservas.silbeck.com.br", "iframe", False,
      '<iframe class="motor" src="https://reservas.silbeck.com.br/hotelserradogramado/?lang=pt-br" width="100%" height="160" scrolling="no" frameborder="0"></iframe>',
      currency="R$"),
    E("pousadamaresia-itacare", "Pousada Maresia", "Itacaré, BA", "BR", "com.br", "pt", "Latin America", "wordpress",
      "PousadaFácil", "widget.pousadafacil.com.br", "script_widget", False,
      '<div id="pf-reserva" data-pousada="maresia-itacare" data-idioma="pt"></div>\n'
      '<script async src="https://widget.pousadafacil.com.br/v2/pf-reserva.min.js"></script>', currency="R$"),
    E("refugiolenga-bariloche", "Refugio Lenga", "San Carlos de Bariloche", "AR", "com.ar", "es", "Latin America",
      "custom", "MotorPatagonia", "reservas.motorpatagonia.com.ar", "widget_init", False,
      '<div id="mp-buscador"></div>\n<script src="https://reservas.motorpatagonia.com.ar/js/buscador.js"></script>\n'
      '<script>MP.buscador({ hotel: 318, idioma: "es", moneda: "ARS", contenedor: "mp-buscador" });</script>',
      currency="ARS"),
    E("casatucan-montezuma", "Casa Tucán", "Montezuma, Puntarenas", "CR", "com", "es", "Latin America", "squarespace",
      "TicoRes", "book.ticores.cr", "js_string", False,
      '<button class="sqs-block-button-element--medium sqs-button-element--primary" id="reservar">Reservar / Book</button>\n'
      '<script>document.getElementById("reservar").onclick=function(){var lang=document.documentElement.lang||"es";'
      'location.assign("https://book.ticores.cr/casatucan/"+lang+"/availability");};</script>', currency="$"),
    E("hacienda-xcanan", "Hacienda Xcanán", "Valladolid, Yucatán", "MX", "com.mx", "es", "Latin America", "wordpress-divi",
      "MotorMaya", "app.motormaya.mx", "custom_element", False,
      '<script type="module" src="https://app.motormaya.mx/elements/mm-motor.esm.js"></script>\n'
      '<mm-motor hotel="hacienda-xcanan" idioma="es" moneda="MXN"></mm-motor>', currency="MXN"),
    E("casaamarilla-cartagena", "Casa Amarilla Hotel Boutique", "Cartagena de Indias", "CO", "com.co", "es",
      "Latin America", "custom", "CaribeRooms", "motor.caribehotelrooms.com", "iframe", False,
      '<iframe id="motorReservas" src="https://motor.caribehotelrooms.com/hotel/casa-amarilla?lang=es&amp;cur=COP" '
      'width="100%" height="120" frameborder="0" scrolling="no"></iframe>', currency="COP"),
    E("posadadelfaro-jose-ignacio", "Posada del Faro", "José Ignacio, Maldonado", "UY", "com.uy", "es",
      "Latin America", "duda", "ReservaUY", "reservas.reservauy.com", "form", False,
      '<form action="https://reservas.reservauy.com/posadadelfaro/disponibilidad" method="post">'
      '<input type="date" name="desde"><input type="date" name="hasta"><input type="number" name="huespedes" value="2" min="1">'
      '<button type="submit" class="dmButtonLink">Consultar disponibilidad</button></form>', currency="US$"),
]

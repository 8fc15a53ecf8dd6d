"""More engine pages (set B), mostly for the rarer forms."""

from entry_b import E

PAGES = [
    E("hotel-seewirt-weissensee", "Hotel Seewirt", "Techendorf, Weissensee", "AT", "at", "de", "Europe", "wordpress",
      "Casablanca", "online.casablanca.at", "script_unusual_path", False,
      '<div id="cb-quickbook" class="cb-qb" data-hotel="seewirt-weissensee" data-lang="de"></div>\n'
      '<script src="https://online.casablanca.at/apps/ibe5/embed/quickbook/cb-quickbook.min.js?v=5.2"></script>'),
    E("ericeirasurfhouse", "Ericeira Surf House", "Ericeira", "PT", "pt", "pt", "Europe", "webflow",
      "Bookinglayer", "static.bookinglayer.io", "script_widget", False,
      '<div class="bookinglayer-widget" data-business="ericeirasurfhouse" data-type="booking-form" data-lang="pt"></div>\n'
      '<script src="https://static.bookinglayer.io/widget/v3/bookinglayer-widget.js" async></script>',
      schema="Hostel"),
    E("oldmillinnpa", "The Old Mill Inn", "New Hope, Pennsylvania", "US", "com", "en", "North America", "custom",
      "roomKeyPMS", "secure.roomkeypms.com", "script_unusual_path", False,
      '<div id="rk-availability" data-property="OLDMILLPA"></div>\n'
      '<script src="https://secure.roomkeypms.com/web/assets/js/partners/rk-availability-embed.js"></script>',
      currency="$", schema="BedAndBreakfast"),
    E("gulfshorescondorentals", "Gulf Shores Condo Rentals", "Gulf Shores, Alabama", "US", "com", "en",
      "North America", "wordpress-divi", "LiveRez", "secure.liverez.com", "js_string", True,
      '<form id="avail-search" onsubmit="return goSearch(this)"><input type="date" name="arrive"><input type="date" name="depart">'
      '<input type="number" name="guests" value="4"><button type="submit">Search Rentals</button></form>\n'
      '<script>function goSearch(f){var base="https://secure.liverez.com/vrp/search/results.aspx?DataBaseID=60114&LanguageID=1";'
      'window.location.href=base+"&ArrivalDate="+f.arrive.value+"&DepartureDate="+f.depart.value+"&Sleeps="+f.guests.value;return false;}</script>',
      currency="$", schema="LodgingBusiness"),
    E("hoian-riverside-lantern", "Riverside Lantern Homestay", "Hội An", "VN", "com", "en", "Asia", "custom",
      "HoiAnBook", "cdn.hoianbook.vn", "custom_element", False,
      '<script src="https://cdn.hoianbook.vn/elements/hab-search.js" type="module"></script>\n'
      '<hab-search property-code="RLH-0921" lang="vi" currency="VND"></hab-search>', currency="VND",
      schema="BedAndBreakfast"),
    E("pokhara-lakeside-retreat", "Lakeside Retreat Pokhara", "Pokhara", "NP", "com", "en", "Asia", "duda",
      "HimalRes", "widgets.himalres.com.np", "script_widget", False,
      '<div class="himalres-book" data-hotel="lakeside-retreat" data-button-text="Check availability"></div>\n'
      '<script src="https://widgets.himalres.com.np/book-button.js" async defer></script>', currency="NPR"),
    E("villacayena-lasterrenas", "Villa Cayena", "Las Terrenas, Samaná", "DO", "com", "es", "Latin America", "framer",
      "QuisqueyaRes", "reservas.quisqueyares.do", "custom_element", False,
      '<script type="module" src="https://reservas.quisqueyares.do/wc/q-reserva.js"></script>\n'
      '<q-reserva hotel="villa-cayena" idioma="es" moneda="USD"></q-reserva>', currency="US$"),
    E("casonasanblas-cusco", "Casona San Blas", "Cusco", "PE", "com.pe", "es", "Latin America", "custom",
      "CuscoRes", "motor.cuscores.pe", "script_unusual_path", False,
      '<div id="cr-motor" class="motor-reservas" data-hotel="casona-san-blas"></div>\n'
      '<script src="https://motor.cuscores.pe/public/clientes/js/motor-embebido.js?v=7"></script>', currency="S/"),
]

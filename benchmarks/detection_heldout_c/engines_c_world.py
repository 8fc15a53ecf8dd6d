"""Engine pages of held-out set C: the Americas, Asia, Oceania and Africa. Fictional-but-plausible regional
engines: HospedajeYa, HospedaMais, MitadRes, ChapinBook, CenoteRes, MinsuBook, TempahRes, KamarKita, FaleBook,
NohoBook, GîteRésa, KaribuRes, AkwaabaBook, DarResa, DuneRes."""

from __future__ import annotations

from entry_c import E

PAGES = [
    # Latin America
    E("casa-la-merced-cartagena", "Casa La Merced", "Cartagena", "CO", "com.co", "es", "Latin America", "wordpress",
      "LobbyPMS", "engine.lobbypms.com", "link", False,
      '<a class="elementor-button elementor-size-lg" href="https://engine.lobbypms.com/casa-la-merced?lang=es">Reserva ahora</a>\n'
      '<a class="elementor-button" href="https://wa.me/573001234567">Escríbenos</a>', currency="COP"),
    E("hosteria-el-calafate-sur", "Hostería Lago Sur", "El Calafate", "AR", "com.ar", "es", "Latin America", "tilda",
      "HospedajeYa", "reservas.hospedajeya.com.ar", "script_widget", False,
      '<div id="hospedajeya-buscador" data-establecimiento="lago-sur-3371" data-idioma="es"></div>\n'
      '<script src="https://reservas.hospedajeya.com.ar/widget/buscador.js" async></script>', currency="ARS"),
    E("pousada-mar-de-paraty", "Pousada Mar de Paraty", "Paraty", "BR", "com.br", "pt", "Latin America", "wix",
      "HospedaMais", "motor.hospedamais.com.br", "iframe", False,
      '<iframe title="Reservar" src="https://motor.hospedamais.com.br/reservar/pousada-mar-de-paraty?idioma=pt-BR" '
      'width="100%" height="640" frameborder="0" allow="payment"></iframe>', currency="R$"),
    E("pousada-serra-azul-gramado", "Pousada Serra Azul", "Gramado", "BR", "com.br", "pt", "Latin America", "wordpress-divi",
      "Desbravador", "reservas.desbravador.com.br", "widget_init", False,
      '<div id="motor-desbravador"></div>\n<script src="https://reservas.desbravador.com.br/motor/js/motor.min.js"></script>\n'
      '<script>MotorReservas.iniciar({hotel:"2741",elemento:"#motor-desbravador",idioma:"pt_BR",moeda:"BRL"});</script>',
      currency="R$"),
    E("hostal-mitad-del-mundo", "Hostal Mitad del Mundo", "Quito", "EC", "ec", "es", "Latin America", "duda",
      "MitadRes", "reservar.mitadres.ec", "custom_element", False,
      '<script src="https://reservar.mitadres.ec/elementos/reserva.js" type="module"></script>\n'
      '<mitad-reserva hotel="mitad-del-mundo-q7" idioma="es" tema="claro"></mitad-reserva>', currency="US$"),
    E("posada-santa-lucia-antigua", "Posada Santa Lucía", "Antigua Guatemala", "GT", "com.gt", "es", "Latin America", "squarespace",
      "ChapinBook", "reservaciones.chapinbook.gt", "js_string", False,
      '<a class="sqs-block-button-element" href="#reservar" data-reservar>Reservar</a>\n'
      '<script>window.addEventListener("load",function(){document.querySelectorAll("[data-reservar]").forEach(function(a){'
      'a.href="https://reservaciones.chapinbook.gt/posada-santa-lucia/disponibilidad";});});</script>', currency="Q"),
    E("hotel-cenote-azul-bacalar", "Hotel Cenote Azul", "Bacalar", "MX", "com.mx", "es", "Latin America", "custom",
      "CenoteRes", "reservaciones.cenoteres.mx", "script_unusual_path", False,
      '<div id="cr-reservas" class="reservas"></div>\n'
      '<script src="https://reservaciones.cenoteres.mx/assets/integracion/v3/cr-loader.js?h=cenote-azul" defer></script>',
      currency="MXN"),
    # Asia
    E("ryokan-kawasemi-kinosaki", "川せみ旅館", "城崎温泉", "JP", "jp", "ja", "Asia", "custom",
      "Neppan", "www.neppan.net", "form", False,
      '<form name="yoyaku" action="https://www.neppan.net/brand/reserve/planList.php" method="get" target="_blank">\n'
      '<input type="hidden" name="hotelId" value="kawasemi">\n<label>チェックイン <input type="date" name="checkInDate"></label>\n'
      '<label>泊数 <select name="stayCount"><option>1</option><option>2</option></select></label>\n'
      '<label>大人 <select name="adultNum"><option>1</option><option selected>2</option></select></label>\n<button>空室検索</button></form>',
      domain="kawasemi-kinosaki.jp", currency="¥"),
    E("pension-hoshizora-hakuba", "ペンション星空", "白馬村", "JP", "jp", "ja", "Asia", "jimdo",
      "Direct In", "www.directin.jp", "iframe", False,
      '<iframe src="https://www.directin.jp/hoshizora-hakuba/reserve/calendar?lang=ja" width="100%" height="700" '
      'frameborder="0" title="ご予約"></iframe>', domain="hoshizora-hakuba.jp", currency="¥"),
    E("ganga-view-rishikesh", "Ganga View Homestay", "Rishikesh", "IN", "in", "en", "Asia", "wordpress",
      "BookingJini", "bookingjini.com", "script_widget", True,
      '<div id="bookingjini-widget" data-hotel-id="1993" data-theme="saffron"></div>\n'
      '<script src="https://bookingjini.com/be/widget/v3/bookingjini-widget.js" async></script>', currency="₹"),
    E("coorg-coffee-estate-stay", "Misty Estate Stay", "Madikeri, Coorg", "IN", "in", "en", "Asia", "godaddy",
      "Aiosell", "be.aiosell.com", "link", False,
      '<a class="x-el x-el-a c1-book" href="https://be.aiosell.com/book/misty-estate-coorg" target="_blank" rel="noopener">Book Direct &amp; Save 10%</a>',
      currency="₹"),
    E("hoi-thuong-homestay-sapa", "Hội Thượng Homestay", "Sa Pa", "VN", "vn", "vi", "Asia", "wordpress-astra",
      "ezCloud", "booking.ezcloud.vn", "widget_init", False,
      '<div id="ez-booking"></div>\n<script src="https://booking.ezcloud.vn/sdk/ezbooking.js"></script>\n'
      '<script>ezBooking.init({hotelCode:"HTSAPA",target:"ez-booking",language:"vi",currency:"VND"});</script>',
      currency="₫"),
    E("jiufen-shanjian-minsu", "九份山間民宿", "九份", "TW", "tw", "zh", "Asia", "strikingly",
      "MinsuBook", "dingfang.minsubook.tw", "custom_element", False,
      '<script src="https://dingfang.minsubook.tw/static/elements/minsu-booking.js" defer></script>\n'
      '<minsu-booking shop="jiufen-shanjian" lang="zh-TW" show-calendar="true"></minsu-booking>',
      domain="jiufen-shanjian.tw", currency="NT$"),
    E("inap-desa-cherating", "Inap Desa Cherating", "Cherating", "MY", "com.my", "ms", "Asia", "site123",
      "TempahRes", "tempahan.tempahres.my", "form", False,
      '<form action="https://tempahan.tempahres.my/carian" method="post">\n<input type="hidden" name="kod_hartanah" value="CHR-118">\n'
      '<label>Tarikh masuk <input type="date" name="tarikh_masuk"></label><label>Tarikh keluar <input type="date" name="tarikh_keluar"></label>\n'
      '<label>Dewasa <input type="number" name="dewasa" value="2"></label><label>Kanak-kanak <input type="number" name="kanak" value="0"></label>\n'
      '<button type="submit">Tempah sekarang</button></form>', currency="RM"),
    E("omah-kopi-yogyakarta", "Omah Kopi Guesthouse", "Yogyakarta", "ID", "co.id", "id", "Asia", "hostinger",
      "KamarKita", "pesan.kamarkita.co.id", "script_unusual_path", False,
      '<div id="kk-pesan"></div>\n<script src="https://pesan.kamarkita.co.id/static/embed/pesan-widget.bundle.js?properti=omah-kopi-jogja" async></script>',
      currency="Rp"),
    # Oceania
    E("kaikoura-bay-motel", "Kaikōura Bay Motel", "Kaikōura", "NZ", "co.nz", "en", "Oceania", "wordpress",
      "Seekom", "book.seekom.com", "link", False,
      '<a class="btn" href="https://book.seekom.com/kaikourabaymotel/property/2206?checkin=&amp;nights=2">Book Online</a>',
      currency="NZ$"),
    E("daylesford-spa-cottages", "Daylesford Spa Cottages", "Daylesford", "AU", "com.au", "en", "Oceania", "squarespace",
      "GuestPoint", "secure.guestpoint.com", "iframe", False,
      '<iframe src="https://secure.guestpoint.com/BookingEngine/Availability?propertyId=4471&amp;embedded=true" '
      'style="width:100%;height:820px;border:0" title="Book online"></iframe>', currency="A$"),
    E("lalomanu-beach-fales", "Lalomanu Beach Fales", "Lalomanu, Upolu", "WS", "ws", "en", "Oceania", "wix",
      "FaleBook", "tusi.falebook.ws", "custom_element", False,
      '<script src="https://tusi.falebook.ws/embed/fale-booking.js" type="module"></script>\n'
      '<fale-booking property="lalomanu-beach" currency="WST"></fale-booking>', currency="WST"),
    E("whare-rata-lodge-rotorua", "Whare Rata Lodge", "Rotorua", "NZ", "co.nz", "en", "Oceania", "webflow",
      "NohoBook", "book.nohobook.nz", "widget_init", False,
      '<div id="noho"></div>\n<script src="https://book.nohobook.nz/js/noho-embed.js"></script>\n'
      '<script>window.Noho && Noho.mount("#noho",{lodge:"whare-rata",theme:"forest",guests:2});</script>', currency="NZ$"),
    # North America
    E("maple-hill-bnb-vermont", "Maple Hill Bed & Breakfast", "Woodstock, VT", "US", "com", "en", "North America", "weebly",
      "ReservationKey", "www.reservationkey.com", "link", False,
      '<a class="wsite-button wsite-button-large" href="https://www.reservationkey.com/maplehillbnb/reserve"><span class="wsite-button-inner">Check Availability</span></a>',
      currency="$"),
    E("copper-creek-inn-montana", "Copper Creek Inn", "Philipsburg, MT", "US", "com", "en", "North America", "godaddy",
      "RezStream", "secure.rezstream.com", "iframe", False,
      '<iframe src="https://secure.rezstream.com/booking/coppercreekinn/availability" width="100%" height="900" '
      'frameborder="0" title="Reservations"></iframe>', currency="$"),
    E("outer-banks-sound-rentals", "Soundside Vacation Rentals", "Kill Devil Hills, NC", "US", "com", "en", "North America", "custom",
      "Escapia", "reservations.escapia.com", "js_string", True,
      '<div class="search-bar"><input id="arr" type="date"><input id="dep" type="date"><button id="go">Search Rentals</button></div>\n'
      '<script>var ESC_BASE="https://reservations.escapia.com/soundsidevr/search";document.getElementById("go").onclick=function(){'
      'location.href=ESC_BASE+"?arrival="+document.getElementById("arr").value+"&departure="+document.getElementById("dep").value;};</script>',
      currency="$"),
    E("gatlinburg-ridge-cabins", "Ridgetop Cabins", "Gatlinburg, TN", "US", "com", "en", "North America", "wordpress-avada",
      "Streamline", "www.streamlinevrs.com", "script_widget", False,
      '<div id="streamline-search" data-company="ridgetopcabins"></div>\n'
      '<script src="https://www.streamlinevrs.com/embed/search-widget.js" async></script>', currency="$"),
    E("gite-du-fjord-tadoussac", "Gîte du Fjord", "Tadoussac, QC", "CA", "ca", "fr", "North America", "wordpress-divi",
      "GîteRésa", "reserver.giteresa.qc.ca", "custom_element", False,
      '<script src="https://reserver.giteresa.qc.ca/composants/resa-gite.js" defer></script>\n'
      '<resa-gite etablissement="gite-du-fjord" langue="fr-CA" devise="CAD"></resa-gite>', currency="$"),
    # Africa
    E("bo-kaap-guest-house", "Bo-Kaap Guest House", "Cape Town", "ZA", "co.za", "en", "Africa", "wordpress",
      "RoomRaccoon", "booking.roomraccoon.com", "link", True,
      '<a class="elementor-button-link elementor-button" href="https://booking.roomraccoon.com/bo-kaap-guest-house/en/">BOOK NOW</a>',
      currency="R"),
    E("paje-beach-bandas", "Paje Beach Bandas", "Paje, Zanzibar", "TZ", "co.tz", "sw", "Africa", "wix",
      "KaribuRes", "hifadhi.karibures.co.tz", "form", False,
      '<form action="https://hifadhi.karibures.co.tz/tafuta" method="get">\n<input type="hidden" name="nyumba" value="paje-bandas">\n'
      '<label>Tarehe ya kuwasili <input type="date" name="tarehe_kuwasili"></label><label>Tarehe ya kuondoka <input type="date" name="tarehe_kuondoka"></label>\n'
      '<label>Watu wazima <input type="number" name="watu_wazima" value="2"></label><label>Watoto <input type="number" name="watoto" value="0"></label>\n'
      '<button type="submit">Hifadhi sasa</button></form>', currency="$"),
    E("cape-coast-lodge-ghana", "Elmina Bay Lodge", "Elmina", "GH", "com.gh", "en", "Africa", "duda",
      "AkwaabaBook", "book.akwaababook.com.gh", "script_widget", False,
      '<div class="akwaaba-book" data-lodge="elmina-bay-lodge"></div>\n<script async src="https://book.akwaababook.com.gh/widget.js"></script>',
      currency="GH₵"),
    E("dar-el-medina-tunis", "Dar El Medina", "Tunis", "TN", "tn", "fr", "Africa", "custom",
      "DarResa", "reservation.darresa.tn", "js_string", False,
      '<a href="javascript:void(0)" class="btn" onclick="reserver()">Réserver</a>\n'
      '<script>function reserver(){var u=["https://reservation.darresa.tn","/maison/dar-el-medina","?langue=fr"].join("");window.open(u);}</script>',
      currency="TND"),
    E("sossus-dune-camp", "Sossus Dune Camp", "Sesriem", "NA", "com.na", "en", "Africa", "framer",
      "DuneRes", "bookings.duneres.com.na", "script_unusual_path", False,
      '<div id="dr-availability"></div>\n<script src="https://bookings.duneres.com.na/public/lib/embed/availability.v2.min.js" '
      'data-camp="sossus-dune" data-target="dr-availability"></script>', currency="N$"),
]

"""Engine pages, forms widget_init / custom_element / script_unusual_path / js_string."""

from __future__ import annotations

from entry import E, ota_footer

WIDGET_INIT = [
    E("hotelmalastrana", "Hotel Malá Strana", "Prague", "cz", "en", "Europe", "custom", "Mews", "api.mews.com",
      "widget_init", True,
      '<button class="btn distributor-open" type="button">Book now</button>',
      tail='<script src="https://api.mews.com/distributor/distributor.min.js"></script>\n'
           "<script>Mews.Distributor({configurationIds: ['3b8c7e4a-92d1-4f0e-a6b3-acde00f1c27b'], openElements: '.distributor-open'}, "
           "function (api) { api.setLanguageCode('en-US'); });</script>"),
    E("hotelcortevecchia", "Hotel Corte Vecchia", "Verona", "it", "it", "Europe", "wordpress", "Simple Booking",
      "www.simplebooking.it", "widget_init", True,
      '<div id="sb-container"></div>',
      tail='<script type="text/javascript">(function (i, s, o, g, r, a, m) { i["SBSyncroBoxParam"] = r; i[r] = i[r] || function () '
           '{ (i[r].q = i[r].q || []).push(arguments) }, i[r].l = 1 * new Date(); a = s.createElement(o), m = s.getElementsByTagName(o)[0]; '
           'a.async = 1; a.src = g; m.parentNode.insertBefore(a, m) })(window, document, "script", '
           '"https://www.simplebooking.it/search-box-script.axd?IDA=5431", "SBSyncroBox");\n'
           'SBSyncroBox({ CodLang: "IT", Styles: { Theme: "light-pink" } });</script>'),
    E("gostinitsaneva", "Гостиница Нева", "Saint Petersburg", "ru", "en", "Europe", "custom", "Exely",
      "ibe.tlintegration.com", "widget_init", True,
      '<div id="tl-booking-form"></div>',
      tail="<script type='text/javascript'>(function(w){var q=[['setContext','TL-INT-neva-spb_2023-11-02','ru'],"
           "['embed','booking-form',{container:'tl-booking-form'}]];var h=['ru-ibe.tlintegration.ru','ibe.tlintegration.ru','ibe.tlintegration.com'];"
           "var t=w.travelline=(w.travelline||{}),ti=t.integration=(t.integration||{});ti.__cq=ti.__cq?ti.__cq.concat(q):q;"
           "if(!ti.__loader){ti.__loader=true;var d=w.document,c=d.getElementsByTagName('head')[0]||d.getElementsByTagName('body')[0];"
           "function e(s,f){return function(){w.TL||(c.removeChild(s),f())}}(function l(h){if(0===h.length)return;var s=d.createElement('script');"
           "s.type='text/javascript';s.async=!0;s.src='https://'+h[0]+'/integration/loader.js';s.onerror=s.onload=e(s,function(){l(h.slice(1,h.length))});"
           "c.appendChild(s)})(h);}})(window);</script>"),
    E("minihotelkazan", "Mini-Hotel Kremlin View", "Kazan", "ru", "en", "Europe", "wordpress", "Bnovo",
      "widget.bnovo.ru", "widget_init", True,
      '<div id="_bn_widget_"></div>',
      tail='<script type="text/javascript" src="https://widget.bnovo.ru/v2/js/bnovo.js"></script>\n'
           '<script type="text/javascript">Bnovo_Widget.init(function(){ Bnovo_Widget.open("_bn_widget_", '
           '{ type: "horizontal", uid: "9a1f3e2c-6d7b-4c1a-8e0f-2b5d4a7c9e11", lang: "ru", currency: "RUB", '
           'width: "100%", background: "#ffffff", bg_alpha: "100" }); });</script>'),
    E("bbilglicine", "B&amp;B Il Glicine", "Lucca", "it", "it", "Europe", "custom", "WuBook", "wubook.net",
      "widget_init", True,
      '<div id="_baror_"></div>',
      tail='<script type="text/javascript" src="https://wubook.net/js/wbk/wbkcompiled.js"></script>\n'
           '<script type="text/javascript">var WuBook = new _WuBook(1492837465); var wbparams = { width: 100, height: 680, lang: "it", '
           'layout: "", wbgoogle: 0, default_nights: 1 }; WuBook.design_iframe("_baror_", wbparams);</script>'),
    E("baanrimnam", "Baan Rim Nam", "Chiang Rai", "com", "en", "Asia", "wordpress", "Beds24", "media.xmlcal.com",
      "widget_init", True,
      '<div id="bookWidget-61337-118902-0-1700000000"></div>',
      tail='<script src="https://media.xmlcal.com/widget/1.00/js/bookWidget.min.js"></script>\n'
           "<script>jQuery(document).ready(function($){ $('#bookWidget-61337-118902-0-1700000000').bookWidget({ propid: 61337, "
           "formAction: 'https://beds24.com/booking2.php', widgetLang: 'en', widgetType: 'BookingBox' }); });</script>"),
    E("hotelbalticsopot", "Hotel Bałtyk", "Sopot", "pl", "en", "Europe", "wordpress", "Profitroom",
      "booking.profitroom.com", "widget_init", True,
      '<div class="pr-booking-form"></div>',
      tail="<script>(function(d){var s=d.createElement('script');s.async=true;s.src='https://booking.profitroom.com/widget/js/booking-form.js';"
           "s.onload=function(){ Booking.InitForm({ site: 'hotelbaltyksopot', container: '.pr-booking-form', lang: 'pl', currency: 'PLN' }); };"
           "d.head.appendChild(s);})(document);</script>"),
    E("aegeanbluenaxos", "Aegean Blue Suites", "Naxos", "gr", "en", "Europe", "custom", "AegeanBook",
      "engine.aegeanbook.gr", "widget_init", False,
      '<div id="ab-engine" class="search-panel"></div>',
      tail="<script>window.AegeanBook=window.AegeanBook||function(){(AegeanBook.q=AegeanBook.q||[]).push(arguments)};"
           "AegeanBook('init',{hotel:'aegean-blue-naxos',container:'#ab-engine',lang:'en'});</script>\n"
           '<script async src="https://engine.aegeanbook.gr/sdk/v2.js"></script>'),
    E("hoianlanternhouse", "Lantern House Hoi An", "Hoi An", "vn", "en", "Asia", "wordpress", "PhongBooking",
      "cdn.phongbooking.vn", "widget_init", False,
      '<div id="phong-be"></div>',
      tail="<script>(function(){var s=document.createElement('script');s.src='https://cdn.phongbooking.vn/be/v2/phong.js';"
           "s.onload=function(){PhongBE.mount('#phong-be',{property:'lantern-house-hoian',locale:'vi',currency:'VND'});};"
           "document.body.appendChild(s);})();</script>"),
    E("casonacusco", "Casona San Blas", "Cusco", "pe", "es", "Latin America", "custom", "InkaReservas",
      "js.inkareservas.pe", "widget_init", False,
      '<div class="inka-motor" id="motor-reservas"></div>',
      tail="<script>!function(w,d,u){w.InkaRes=w.InkaRes||function(){(w.InkaRes.q=w.InkaRes.q||[]).push(arguments)};"
           "var s=d.createElement('script');s.async=1;s.src=u;d.head.appendChild(s)}(window,document,'https://js.inkareservas.pe/ir.js');"
           "InkaRes('init',{propiedad:'casona-san-blas',idioma:'es',moneda:'PEN',contenedor:'#motor-reservas'});</script>"),
    E("ferienwohnungseeblick", "Ferienwohnungen Seeblick", "Konstanz", "de", "de", "Europe", "wordpress", "Smoobu",
      "login.smoobu.com", "widget_init", True,
      '<div id="apartmentIframeAll"></div>',
      tail='<script type="text/javascript" src="https://login.smoobu.com/js/Apartment/CalendarWidget.js"></script>\n'
           '<script type="text/javascript">BookingToolIframe.initialize({"url": "https://login.smoobu.com/de/booking-tool/iframe/482211", '
           '"baseUrl": "https://login.smoobu.com", "target": "#apartmentIframeAll"});</script>'),
]

CUSTOM_ELEMENT = [
    E("hotelarenalvista", "Hotel Arenal Vista", "La Fortuna", "cr", "es", "Latin America", "webflow", "Cloudbeds",
      "hotels.cloudbeds.com", "custom_element", True,
      '<cloudbeds-booking-engine property-code="k8Ym3q" lang="es" layout="bar"></cloudbeds-booking-engine>',
      tail='<script type="module" src="https://hotels.cloudbeds.com/web-components/booking-engine.js"></script>'),
    E("bluewrenmotel", "Blue Wren Motel", "Mudgee, NSW", "com.au", "en", "Oceania", "squarespace",
      "Little Hotelier", "app.littlehotelier.com", "custom_element", True,
      '<lh-booking-widget property="bluewrenmoteldirect" currency="AUD"></lh-booking-widget>',
      tail='<script type="module" src="https://app.littlehotelier.com/web-components/lh-booking-widget.js"></script>'),
    E("thewheatsheafinn", "The Wheatsheaf Inn", "Cirencester", "co.uk", "en", "Europe", "custom", "Guestline",
      "booking.eu.guestline.app", "custom_element", True,
      '<guestline-booking-bar hotel-id="WHEATSHEAF" group-id="WHEAT01" language="en-GB"></guestline-booking-bar>',
      tail='<script type="module" src="https://booking.eu.guestline.app/widgets/booking-bar.js"></script>'),
    E("landhotelheide", "Landhotel Heidekrug", "Lüneburg", "de", "de", "Europe", "wordpress", "HotelNetSolutions",
      "ibe.hotelnetsolutions.de", "custom_element", True,
      '<hns-booking-mask hotel-id="10234" lang="de"></hns-booking-mask>',
      tail='<script src="https://ibe.hotelnetsolutions.de/components/booking-mask.js" defer></script>'),
    E("alpenhofinnsbruck", "Alpenhof Igls", "Innsbruck", "at", "de", "Europe", "custom", "Seekda",
      "cloud.seekda.com", "custom_element", True,
      '<seekda-quick-search hotel="ATINN30417" language="de"></seekda-quick-search>',
      tail='<script src="https://cloud.seekda.com/w/w-dynamic-shop/components/quick-search.js" defer></script>'),
    E("jurmalavilla", "Villa Dzintari", "Jūrmala", "lv", "en", "Europe", "custom", "BaltStay", "cdn.baltstay.lv",
      "custom_element", False,
      '<baltstay-search property="villa-dzintari" locale="lv"></baltstay-search>',
      tail='<script type="module" src="https://cdn.baltstay.lv/elements/baltstay-search.js"></script>'),
    E("redrockmotel", "Red Rock Motel", "Alice Springs, NT", "com.au", "en", "Oceania", "wordpress",
      "OutbackRes", "widgets.outbackres.com.au", "custom_element", False,
      '<obr-availability park="red-rock-motel" nights="2"></obr-availability>',
      tail='<script type="module" src="https://widgets.outbackres.com.au/v1/obr-availability.js"></script>'),
    E("ryokanshiraume", "Ryokan Shiraume", "Kanazawa", "jp", "en", "Asia", "custom", "RyokanDirect",
      "elements.ryokandirect.jp", "custom_element", False,
      '<ryokan-direct-calendar facility="KNZ-0117" lang="ja"></ryokan-direct-calendar>',
      tail='<script type="module" src="https://elements.ryokandirect.jp/calendar.js"></script>'),
    E("hotelcartagenamar", "Casa Mar Cartagena", "Cartagena", "com.co", "es", "Latin America", "wix",
      "ReservasCaribe", "motor.reservascaribe.co", "custom_element", False,
      '<rc-motor-reservas hotel="casa-mar-ctg" idioma="es" moneda="COP"></rc-motor-reservas>',
      tail='<script src="https://motor.reservascaribe.co/static/rc-motor.js" defer></script>'),
    E("hostalsierranevada", "Hostal Sierra Nevada", "Granada", "es", "es", "Europe", "custom", "Avirato",
      "booking.avirato.com", "custom_element", True,
      '<avirato-engine code="hsn1821" lang="es"></avirato-engine>',
      tail='<script src="https://booking.avirato.com/engine/avirato-engine.js" defer></script>'),
    E("rishikeshriverside", "Riverside Retreat", "Rishikesh", "in", "en", "Asia", "wordpress", "Djubo",
      "booking.djubo.com", "custom_element", True,
      '<djubo-booking-widget hotel="riverside-retreat-rishikesh"></djubo-booking-widget>',
      tail='<script src="https://booking.djubo.com/widget/djubo-widget.js" defer></script>'),
]

UNUSUAL = [
    E("pinecrestlodgeca", "Pinecrest Lodge", "Big Bear Lake, CA", "com", "en", "North America", "wordpress",
      "Cloudbeds", "hotels.cloudbeds.com", "script_unusual_path", True,
      '<div id="booking-widget" data-code="XyZ12q"></div>',
      tail='<script src="https://hotels.cloudbeds.com/assets/widgets/immersive/v3/loader.min.js?code=XyZ12q" defer></script>',
      footer=ota_footer("pinecrestlodgeca", "us")),
    E("coralcoastmotel", "Coral Coast Motel", "Bundaberg, QLD", "com.au", "en", "Oceania", "custom", "SiteMinder",
      "app.thebookingbutton.com", "script_unusual_path", True,
      '<div class="tbb-widget" data-channel="coralcoastdirect"></div>',
      tail='<script src="https://app.thebookingbutton.com/assets/booking_widget/v2/widget-bundle.js" async></script>'),
    E("queenstownalpine", "Alpine Lodge Queenstown", "Queenstown", "co.nz", "en", "Oceania", "wordpress", "RMS",
      "bookings.rmscloud.com", "script_unusual_path", True,
      '<div id="rms-ibe"></div>',
      tail='<script src="https://bookings.rmscloud.com/obe/assets/js/rms-ibe-embed.js?clientId=12871&amp;agentId=90" async></script>'),
    E("maplehillinn", "Maple Hill Inn", "Lenox, MA", "com", "en", "North America", "squarespace",
      "ThinkReservations", "secure.thinkreservations.com", "script_unusual_path", True,
      '<div class="tr-widget" data-hotel="maplehillinn"></div>',
      tail='<script src="https://secure.thinkreservations.com/assets/widget/tr-booking.js" async></script>'),
    E("hotelbellevuegstaad", "Hotel Bellevue", "Gstaad", "ch", "fr", "Europe", "custom", "D-Edge",
      "www.secure-hotel-booking.com", "script_unusual_path", True,
      '<div id="dedge-smart-widget"></div>',
      tail='<script src="https://www.secure-hotel-booking.com/static/js/smart-widget/loader.js?hotel=23YD" defer></script>'),
    E("galleheritagevilla", "Heritage Villa Galle", "Galle", "lk", "en", "Asia", "wordpress", "eZee",
      "live.ipms247.com", "script_unusual_path", True,
      '<div id="ezee-be-widget" data-hotelcode="27514"></div>',
      tail='<script src="https://live.ipms247.com/booking/js/bewidget/v3/widget.js" async></script>'),
    E("hotelfazendaserra", "Hotel Fazenda Serra Verde", "Gramado", "com.br", "pt", "Latin America", "custom",
      "Omnibees", "book.omnibees.com", "script_unusual_path", True,
      '<div id="omnibees-engine" data-hotel="7812"></div>',
      tail='<script src="https://book.omnibees.com/Content/js/engine-widget.js?c=3421" defer></script>'),
    E("thecarltonasheville", "The Carlton", "Asheville, NC", "com", "en", "North America", "custom", "SynXis",
      "be.synxis.com", "script_unusual_path", True,
      '<div id="cbe-embed" data-hotel="70113" data-chain="27304"></div>',
      tail='<script src="https://be.synxis.com/assets/cbe/embed/loader.js" async></script>'),
    E("hotelmazuria", "Hotel Mazury Resort", "Mikołajki", "pl", "en", "Europe", "wordpress", "Profitroom",
      "booking.profitroom.com", "script_unusual_path", True,
      '<div id="pr-booking-bar"></div>',
      tail='<script src="https://booking.profitroom.com/assets/widget/v2/booking-bar.js?site=mazuryresort" defer></script>'),
    E("thestagsheadinn", "The Stag's Head Inn", "Keswick", "co.uk", "en", "Europe", "wordpress", "Freetobook",
      "portal.freetobook.com", "script_unusual_path", True,
      '<div id="f2b-widget" data-w-id="22871"></div>',
      tail='<script src="https://portal.freetobook.com/widget-assets/js/f2b-search.js" async></script>'),
    E("lakeloiuselodge", "Moraine Creek Lodge", "Lake Louise, AB", "ca", "en", "North America", "custom",
      "WebRezPro", "secure.webrez.com", "script_unusual_path", True,
      '<div class="wrp-booking" data-property="3318"></div>',
      tail='<script src="https://secure.webrez.com/js/widgets/booking-widget.min.js" defer></script>'),
]

JS_STRING = [
    E("hotelcasaazul", "Hotel Casa Azul", "Oaxaca", "com.mx", "es", "Latin America", "custom", "Cloudbeds",
      "hotels.cloudbeds.com", "js_string", True,
      '<button class="btn-reservar" type="button">Reservar</button>',
      tail="<script>document.querySelector('.btn-reservar').addEventListener('click',function(){var ci=document.getElementById('ci')?"
           "document.getElementById('ci').value:'';window.location.href='https://hotels.cloudbeds.com/reservation/'+'pQ8sLm'+'?checkin='+ci;});</script>"),
    E("lakeviewmotelnz", "Lakeview Motel", "Taupō", "co.nz", "en", "Oceania", "wordpress", "Little Hotelier",
      "app.littlehotelier.com", "js_string", True,
      '<button onclick="window.open(\'https://app.littlehotelier.com/properties/lakeviewmoteldirect\', \'_blank\')">Book Now</button>'),
    E("villasolartenerife", "Villa Solar", "Adeje, Tenerife", "es", "es", "Europe", "custom", "Lodgify",
      "checkout.lodgify.com", "js_string", True,
      '<a href="#" class="js-book">Reservar</a>',
      tail="<script>var LODGIFY_CHECKOUT = \"https://checkout.lodgify.com/villasolar/es/#/312877\";"
           "document.querySelectorAll('.js-book').forEach(function(a){a.addEventListener('click',function(e){e.preventDefault();window.location=LODGIFY_CHECKOUT;});});</script>"),
    E("bbsanfrediano", "B&amp;B San Frediano", "Firenze", "it", "it", "Europe", "wordpress", "Bedzzle",
      "booking.bedzzle.com", "js_string", True,
      '<button class="prenota" data-action="book">Prenota ora</button>',
      tail="<script>jQuery('.prenota').on('click',function(){window.open('https://booking.bedzzle.com/desktop/?apikey=2c9f4a1b7e8d3f60&lang=it','_blank');});</script>"),
    E("hotelnaranjo", "Hotel Naranjo", "Valencia", "es", "es", "Europe", "custom", "Roiback", "booking.roiback.com",
      "js_string", True,
      '<div class="buscador"><input id="fentrada" type="date"><input id="fsalida" type="date"><button id="buscar">Buscar</button></div>',
      tail="<script>document.getElementById('buscar').onclick=function(){var u='https://booking.roiback.com/es/hotel-naranjo/?'"
           "+'checkin='+document.getElementById('fentrada').value+'&checkout='+document.getElementById('fsalida').value;window.location.assign(u);};</script>"),
    E("elnidocove", "El Nido Cove Resort", "El Nido, Palawan", "com.ph", "en", "Asia", "wix", "IslaBook",
      "reserve.islabook.ph", "js_string", False,
      '<button id="bookBtn" class="wixui-button">Book your stay</button>',
      tail='<script>const BOOK_URL = "https://reserve.islabook.ph/p/el-nido-cove";document.getElementById("bookBtn")'
           '.addEventListener("click", () => { window.open(BOOK_URL + "?src=website", "_blank"); });</script>'),
    E("riaddarzitoun", "Riad Dar Zitoun", "Marrakech", "ma", "fr", "Africa", "custom", "RiadBook", "book.riadbook.ma",
      "js_string", False,
      '<a class="btn-resa" href="javascript:void(0)" onclick="reserver()">Réserver</a>',
      tail="<script>function reserver(){var d=new Date();location.href='https://book.riadbook.ma/riad/dar-zitoun?lang=fr&from='+d.toISOString().slice(0,10);}</script>"),
    E("thelinwoodinn", "The Linwood Inn", "Charleston, SC", "com", "en", "North America", "custom", "SynXis",
      "be.synxis.com", "js_string", True,
      '<button class="check-rates">Check Rates</button>',
      tail="<script>var HOTEL_ID=63418, CHAIN_ID=27304;$('.check-rates').click(function(){window.location='https://be.synxis.com/?hotel='+HOTEL_ID+'&chain='+CHAIN_ID+'&locale=en-US';});</script>"),
    E("fijireefresort", "Reef Bay Resort", "Coral Coast", "com.fj", "en", "Oceania", "wordpress", "STAAH",
      "bookings.staah.net", "js_string", True,
      '<a class="elementor-button" href="#book" id="staahBook">Book Direct</a>',
      tail="<script>jQuery('#staahBook').on('click',function(e){e.preventDefault();window.open('https://bookings.staah.net/?RID=10821&lang=en','_blank');});</script>"),
    E("blueridgecabinsga", "Blue Ridge Cabins", "Blue Ridge, GA", "com", "en", "North America", "wordpress",
      "OwnerRez", "secure.ownerreservations.com", "js_string", True,
      '<button class="orez-book">Book Now</button>',
      tail="<script>document.querySelector('.orez-book').onclick=function(){location.href='https://secure.ownerreservations.com/book/' + 'OR-482771' + '?adults=2';};</script>"),
    E("hotelpraiapipa", "Pousada Praia da Pipa", "Tibau do Sul", "com.br", "pt", "Latin America", "custom",
      "Hospedin", "motor.hospedin.com", "js_string", False,
      '<button id="reservar">Reservar agora</button>',
      tail="<script>document.getElementById('reservar').addEventListener('click',function(){window.location.href='https://motor.hospedin.com/pousada-praia-da-pipa/busca';});</script>"),
]

PAGES = WIDGET_INIT + CUSTOM_ELEMENT + UNUSUAL + JS_STRING

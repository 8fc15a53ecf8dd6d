"""Engine pages, Asia, Oceania and Africa (set B)."""

from entry_b import E

PAGES = [
    E("kyoto-machiya-sakura", "京町家 さくら庵", "Kyoto", "JP", "jp", "ja", "Asia", "custom",
      "tripla", "tripla.jp", "script_widget", False,
      '<script id="tripla-sdk" src="https://tripla.jp/sdk/javascript/tripla.min.js" data-triplabot-code="kV3xQ9sakura" async></script>\n'
      '<div class="tripla-booking-widget-search" data-lang="ja"></div>', currency="¥", schema="Hotel"),
    E("hakone-yumoto-kanaya", "箱根湯本 金谷旅館", "Hakone", "JP", "jp", "ja", "Asia", "custom",
      "489pro", "www.489pro.com", "link", False,
      '<a class="btn-yoyaku" href="https://www.489pro.com/asp/489/menu.asp?id=14000371&amp;lan=JPN&amp;kid=00156" target="_blank">'
      '<img src="/img/btn_reserve.png" alt="ご予約・空室検索"></a>\n'
      '<p class="plan-note">公式サイトからのご予約が最もお得です</p>', currency="¥", schema="Hotel"),
    E("casabaga-goa", "Casa Baga Heritage Stay", "Baga, Goa", "IN", "in", "en", "Asia", "wordpress",
      "ResAvenue", "www.resavenue.com", "form", False,
      '<form method="post" action="https://www.resavenue.com/resBooking4/searchRooms?targetTemplate=4" target="_blank">\n'
      '<input type="hidden" name="regCode" value="TVRS1842"><input type="text" name="arr_date" placeholder="Check-in"> '
      '<input type="text" name="dep_date" placeholder="Check-out"><select name="adult_1"><option>2</option></select>'
      '<button type="submit">Book Now</button></form>', currency="₹"),
    E("gangakinarastay", "Ganga Kinara Stay", "Rishikesh", "IN", "com", "en", "Asia", "wix",
      "Stayflexi", "gangakinara.stayflexi.com", "link", False,
      '<a data-testid="linkElement" href="https://gangakinara.stayflexi.com/?hotelId=21877" target="_self" class="wixui-button"><span>Book Direct &amp; Save 10%</span></a>',
      currency="₹"),
    E("kumarakomlakehomestay", "Kumarakom Lake Homestay", "Kumarakom, Kerala", "IN", "com", "en", "Asia", "custom",
      "Maximojo", "be.maximojo.com", "iframe", False,
      '<iframe src="https://be.maximojo.com/booking/kumarakomlake?theme=green" width="100%" height="700" style="border:0" loading="lazy"></iframe>',
      currency="₹", schema="BedAndBreakfast"),
    E("jeonju-hanok-dalbit", "전주한옥 달빛채", "Jeonju", "KR", "kr", "ko", "Asia", "custom",
      "HanokStay", "booking.hanokstay.kr", "custom_element", False,
      '<script src="https://booking.hanokstay.kr/sdk/hanok-booking.umd.js"></script>\n'
      '<hanok-booking-calendar house-id="dalbit-jeonju" locale="ko-KR"></hanok-booking-calendar>', currency="₩"),
    E("baanrimping-chiangmai", "Baan Rim Ping Boutique", "Chiang Mai", "TH", "com", "th", "Asia", "wordpress",
      "SiamDirect", "ibe.siamdirect.co.th", "script_unusual_path", False,
      '<div class="sd-quick-search" data-property="BRP-CNX"></div>\n'
      '<script src="https://ibe.siamdirect.co.th/public/themes/default/js/quicksearch-embed.js?ver=2.3"></script>',
      currency="฿"),
    E("galle-fort-lighthouse-villa", "Lighthouse Villa Galle Fort", "Galle", "LK", "com", "en", "Asia", "squarespace",
      "LankaRes", "engine.lankares.lk", "js_string", False,
      '<a class="sqs-block-button-element" href="javascript:void(0)" data-action="book">Book your stay</a>\n'
      '<script>(function(){var cfg={base:"https://engine.lankares.lk/p/lighthouse-villa",currency:"LKR"};'
      'document.addEventListener("click",function(e){var t=e.target.closest("[data-action=book]");if(!t)return;'
      'e.preventDefault();window.location=cfg.base+"?cur="+cfg.currency;});})();</script>', currency="US$"),
    E("ubudsawahvillas", "Ubud Sawah Villas", "Ubud, Bali", "ID", "com", "id", "Asia", "custom",
      "QloApps", "www.ubudsawahvillas.com", "form", False,
      '<div id="search_block_top" class="header-rmsearch-container"><form method="post" action="https://www.ubudsawahvillas.com/module/wkroomsearchblock/searchresult" id="search_hotel_block_form">\n'
      '<input type="hidden" name="hotel_cat_id" value="12"><input type="hidden" name="id_hotel" value="1">\n'
      '<input type="text" class="form-control header-rmsearch-input input-date" id="check_in_time" name="check_in_time" placeholder="Check In" readonly>\n'
      '<input type="text" class="form-control header-rmsearch-input input-date" id="check_out_time" name="check_out_time" placeholder="Check Out" readonly>\n'
      '<button type="submit" name="search_room_submit" class="btn btn-default button button-medium exclusive">Cari</button></form></div>\n'
      '<script type="text/javascript" src="/modules/wkroomsearchblock/views/js/wkroomsearchblock.js"></script>',
      currency="IDR", head_extra='<meta name="generator" content="QloApps" />\n<link rel="stylesheet" href="/themes/hotel-reservation-theme/css/global.css" media="all" />'),
    E("ridgelinemotorinn", "Ridgeline Motor Inn", "Mudgee, NSW", "AU", "com.au", "en", "Oceania", "wordpress-divi",
      "Preno", "app.prenohq.com", "link", False,
      '<a class="et_pb_button" href="https://app.prenohq.com/book/ridgeline-motor-inn" target="_blank">Book Direct</a>',
      currency="A$", schema="Motel"),
    E("wanakalakehouses", "Wanaka Lake Houses", "Wanaka", "NZ", "co.nz", "en", "Oceania", "squarespace",
      "Uplisting", "wanakalakehouses.uplisting.io", "iframe", False,
      '<div class="sqs-block embed-block"><iframe src="https://wanakalakehouses.uplisting.io/?embed=true" width="100%" height="1000" frameborder="0"></iframe></div>',
      currency="NZ$", schema="LodgingBusiness"),
    E("portdouglasreefretreat", "Reef Retreat Apartments", "Port Douglas, QLD", "AU", "com.au", "en", "Oceania", "custom",
      "ResOnline", "secure.resonline.com.au", "form", False,
      '<form action="https://secure.resonline.com.au/booking/availability.aspx" method="get" target="_blank">'
      '<input type="hidden" name="HotelId" value="6123"><input type="date" name="CheckIn"><input type="number" name="Nights" value="3">'
      '<input type="number" name="Adults" value="2"><button type="submit">Check availability</button></form>', currency="A$"),
    E("namakabeachbures", "Namaka Beach Bures", "Nadi, Viti Levu", "FJ", "com.fj", "en", "Oceania", "wix",
      "BulaBook", "secure.bulabook.com.fj", "script_widget", False,
      '<div class="bula-book-button" data-resort="namaka" data-style="coral">Book your bure</div>\n'
      '<script src="https://secure.bulabook.com.fj/widget/bula-button.js" async></script>', currency="FJ$"),
    E("cradlevalleyhuts", "Cradle Valley Huts", "Cradle Mountain, Tasmania", "AU", "com.au", "en", "Oceania",
      "wordpress", "TasBook", "book.tasbook.com.au", "js_string", False,
      '<a href="#book" class="elementor-button js-open-booking">Check dates</a>\n'
      '<script>jQuery(function($){$(".js-open-booking").on("click",function(e){e.preventDefault();'
      'var url="https:\\/\\/book.tasbook.com.au\\/property\\/cradle-valley-huts";window.open(url+"?ref=website","_blank");});});</script>',
      currency="A$"),
    E("kaikouraseaviewmotel", "Kaikoura Seaview Motel", "Kaikōura", "NZ", "co.nz", "en", "Oceania", "custom",
      "Frontdesk Master", "secure.frontdeskmaster.com", "link", False,
      '<a href="https://secure.frontdeskmaster.com/booking/?property=kaikouraseaview" class="btn btn-lg btn-book">Book Online</a>',
      currency="NZ$", schema="Motel"),
    E("queenstownalpinechalets", "Alpine Chalets Queenstown", "Queenstown", "NZ", "co.nz", "en", "Oceania", "webflow",
      "RoomBoss", "www.roomboss.com", "widget_init", False,
      '<div id="roomboss-widget"></div>\n<script src="https://www.roomboss.com/assets/js/widget/roomboss-widget.js"></script>\n'
      '<script>RoomBossWidget.create({element:"roomboss-widget",hotelId:"QTNALP01",locale:"en_NZ",nights:3});</script>',
      currency="NZ$"),
    E("kwamkhulu-game-lodge", "KwaMkhulu Game Lodge", "Hoedspruit, Limpopo", "ZA", "co.za", "en", "Africa", "wordpress",
      "ResRequest", "bookings.resrequest.com", "iframe", False,
      '<iframe src="https://bookings.resrequest.com/webres/kwamkhulu?lang=en" width="100%" height="850" frameborder="0" title="Check availability"></iframe>',
      currency="R", schema="Resort"),
    E("nilehouse-luxor", "Nile House West Bank", "Luxor", "EG", "com", "en", "Africa", "custom",
      "NileStay", "booking.nilestay.com.eg", "form", False,
      '<form action="https://booking.nilestay.com.eg/hotel/nile-house/search" method="get" class="row g-2">'
      '<div class="col"><input class="form-control" type="date" name="from"></div><div class="col"><input class="form-control" type="date" name="to"></div>'
      '<div class="col"><select class="form-select" name="guests"><option>2</option></select></div>'
      '<div class="col"><button class="btn btn-warning w-100">Book now</button></div></form>', currency="EGP"),
    E("jambiani-coral-lodge", "Jambiani Coral Lodge", "Jambiani, Zanzibar", "TZ", "com", "en", "Africa", "wix",
      "ZanziBook", "widget.zanzibook.co.tz", "script_widget", False,
      '<div id="zb-availability" data-lodge="jambiani-coral" data-currency="USD"></div>\n'
      '<script type="text/javascript" src="https://widget.zanzibook.co.tz/availability.js" defer></script>', currency="US$"),
    E("campement-saloum", "Campement du Saloum", "Toubacouta", "SN", "sn", "fr", "Africa", "wordpress",
      "TerangaRes", "reservation.terangares.sn", "widget_init", False,
      '<div id="teranga-booking"></div>\n<script>window.terangaSettings={etablissement:"campement-saloum",langue:"fr",devise:"XOF"};'
      '(function(d,s){var j=d.createElement(s);j.async=1;j.src="https://reservation.terangares.sn/loader/teranga.js";'
      'd.getElementsByTagName("head")[0].appendChild(j);})(document,"script");</script>', currency="FCFA"),
    E("naivasha-acacia-camp", "Acacia Camp Naivasha", "Naivasha", "KE", "co.ke", "en", "Africa", "squarespace",
      "KaroBook", "app.karobook.co.ke", "custom_element", False,
      '<div class="sqs-block code-block"><script type="module" src="https://app.karobook.co.ke/widget/karo-book.js"></script>'
      '<karo-book property="acacia-camp-naivasha" currency="KES" theme="earth"></karo-book></div>', currency="KES",
      schema="Campground"),
    E("riad-dar-essaouira", "Riad Dar Mogador", "Essaouira", "MA", "com", "fr", "Africa", "custom",
      "AtlasRes", "static.atlasres.ma", "script_unusual_path", False,
      '<div class="atlas-moteur" data-riad="dar-mogador" data-langue="fr"></div>\n'
      '<script src="https://static.atlasres.ma/clients/shared/moteur/2024/atlas-moteur.min.js"></script>',
      currency="MAD", domain="riad-dar-mogador.com"),
]

"""Site chrome for held-out set B: the markup around a booking engine on a real independent hotel's
home page, in the style of the site builder it was made with (WordPress with Divi/Elementor/Astra,
Joomla, Drupal, Wix, Squarespace, Webflow, Jimdo, GoDaddy, Duda, Weebly, Framer, hand-made).

Written from how such sites look, without reading any detector or catalogue. The noise (consent
banners, analytics, chat, reviews, maps, newsletter, social) is what a detector must see past.
"""

from __future__ import annotations

import hashlib

# home, rooms, location, contact, welcome, our rooms, reviews, find us, rights, newsletter, per night,
# room types (3), subscribe
WORDS = {
    "en": ("Home", "Rooms", "Location", "Contact", "Welcome to", "Our rooms", "Guest reviews", "How to find us",
           "All rights reserved", "Join our newsletter", "per night", ("Classic Double", "Garden Suite", "Family Room"),
           "Subscribe"),
    "es": ("Inicio", "Habitaciones", "Ubicación", "Contacto", "Bienvenidos a", "Nuestras habitaciones", "Opiniones",
           "Cómo llegar", "Todos los derechos reservados", "Suscríbete a nuestro boletín", "por noche",
           ("Doble Clásica", "Suite Jardín", "Familiar"), "Suscribirme"),
    "pt": ("Início", "Acomodações", "Localização", "Contato", "Bem-vindos à", "Nossas acomodações", "Avaliações",
           "Como chegar", "Todos os direitos reservados", "Receba novidades", "por noite",
           ("Standard Casal", "Suíte Master", "Chalé Família"), "Assinar"),
    "fr": ("Accueil", "Chambres", "Accès", "Contact", "Bienvenue à", "Nos chambres", "Avis de nos hôtes",
           "Venir chez nous", "Tous droits réservés", "Notre lettre d'information", "la nuit",
           ("Chambre Classique", "Suite Patio", "Chambre Familiale"), "S'inscrire"),
    "de": ("Startseite", "Zimmer", "Lage", "Kontakt", "Herzlich willkommen im", "Unsere Zimmer", "Gästestimmen",
           "Anfahrt", "Alle Rechte vorbehalten", "Newsletter abonnieren", "pro Nacht",
           ("Doppelzimmer Komfort", "Juniorsuite", "Familienzimmer"), "Anmelden"),
    "it": ("Home", "Camere", "Dove siamo", "Contatti", "Benvenuti all'", "Le nostre camere", "Recensioni",
           "Come arrivare", "Tutti i diritti riservati", "Iscriviti alla newsletter", "a notte",
           ("Doppia Classic", "Junior Suite", "Family"), "Iscriviti"),
    "nl": ("Home", "Kamers", "Ligging", "Contact", "Welkom bij", "Onze kamers", "Wat gasten zeggen", "Route",
           "Alle rechten voorbehouden", "Schrijf je in voor de nieuwsbrief", "per nacht",
           ("Tweepersoonskamer", "Tuinsuite", "Familiekamer"), "Inschrijven"),
    "pl": ("Start", "Pokoje", "Dojazd", "Kontakt", "Witamy w", "Nasze pokoje", "Opinie gości", "Jak dojechać",
           "Wszelkie prawa zastrzeżone", "Zapisz się do newslettera", "za noc",
           ("Pokój dwuosobowy", "Apartament", "Pokój rodzinny"), "Zapisz"),
    "sk": ("Úvod", "Izby", "Poloha", "Kontakt", "Vitajte v", "Naše izby", "Hodnotenia hostí", "Ako k nám",
           "Všetky práva vyhradené", "Odber noviniek", "za noc", ("Dvojlôžková izba", "Apartmán", "Rodinná izba"),
           "Odoberať"),
    "hu": ("Főoldal", "Szobák", "Elhelyezkedés", "Kapcsolat", "Üdvözöljük a", "Szobáink", "Vendégvélemények",
           "Megközelítés", "Minden jog fenntartva", "Hírlevél", "/éj", ("Franciaágyas szoba", "Lakosztály",
                                                                       "Családi szoba"), "Feliratkozom"),
    "fi": ("Etusivu", "Huoneet", "Sijainti", "Yhteystiedot", "Tervetuloa", "Huoneemme", "Asiakasarviot",
           "Saapuminen", "Kaikki oikeudet pidätetään", "Tilaa uutiskirje", "/yö",
           ("Kahden hengen huone", "Revontulisviitti", "Perhehuone"), "Tilaa"),
    "el": ("Αρχική", "Δωμάτια", "Τοποθεσία", "Επικοινωνία", "Καλώς ήρθατε στο", "Τα δωμάτιά μας", "Κριτικές",
           "Πώς θα έρθετε", "Με επιφύλαξη παντός δικαιώματος", "Newsletter", "ανά βράδυ",
           ("Δίκλινο Θέα Θάλασσα", "Σουίτα με Πισίνα", "Οικογενειακό"), "Εγγραφή"),
    "tr": ("Ana Sayfa", "Odalar", "Konum", "İletişim", "Hoş geldiniz:", "Odalarımız", "Misafir yorumları",
           "Ulaşım", "Tüm hakları saklıdır", "E-bülten", "gecelik", ("Standart Oda", "Deniz Manzaralı Suit",
                                                                      "Aile Odası"), "Abone ol"),
    "ja": ("ホーム", "客室", "アクセス", "お問い合わせ", "ようこそ", "客室のご案内", "お客様の声", "アクセス",
           "無断転載を禁じます", "メールマガジン", "1泊", ("和室 8畳", "露天風呂付き客室", "洋室ツイン"), "登録"),
    "ko": ("홈", "객실", "오시는 길", "문의", "환영합니다", "객실 안내", "후기", "오시는 길", "All rights reserved",
           "뉴스레터", "1박", ("한옥 온돌방", "스위트", "패밀리룸"), "구독"),
    "th": ("หน้าแรก", "ห้องพัก", "ที่ตั้ง", "ติดต่อเรา", "ยินดีต้อนรับสู่", "ห้องพักของเรา", "รีวิวจากผู้เข้าพัก",
           "การเดินทาง", "สงวนลิขสิทธิ์", "รับข่าวสาร", "ต่อคืน", ("ดีลักซ์", "สวีทริมสระ", "แฟมิลี่"), "สมัคร"),
    "id": ("Beranda", "Kamar", "Lokasi", "Kontak", "Selamat datang di", "Kamar kami", "Ulasan tamu",
           "Petunjuk arah", "Hak cipta dilindungi", "Buletin", "per malam", ("Deluxe Garden", "Villa Kolam",
                                                                               "Family Bungalow"), "Daftar"),
}

INTRO = {
    "en": "{name} is an independent, family-run place to stay in {city}: {n} rooms, breakfast made with local produce, bikes to borrow and tips from people who live here.",
    "es": "{name} es un alojamiento independiente y familiar en {city}: {n} habitaciones, desayuno con productos locales y recomendaciones de quienes vivimos aquí.",
    "pt": "{name} é uma hospedagem independente e familiar em {city}: {n} acomodações, café da manhã com produtos da região e dicas de quem mora aqui.",
    "fr": "{name} est une maison indépendante et familiale à {city} : {n} chambres, petit-déjeuner de produits locaux et conseils de ceux qui vivent ici.",
    "de": "{name} ist ein familiengeführtes Haus in {city}: {n} Zimmer, Frühstück mit regionalen Produkten und Tipps von Einheimischen.",
    "it": "{name} è una struttura indipendente a conduzione familiare a {city}: {n} camere, colazione con prodotti locali e consigli di chi vive qui.",
    "nl": "{name} is een zelfstandig familiebedrijf in {city}: {n} kamers, ontbijt met streekproducten en tips van echte locals.",
    "pl": "{name} to rodzinny obiekt w miejscowości {city}: {n} pokoi, śniadania z lokalnych produktów i rady od gospodarzy.",
    "sk": "{name} je rodinný penzión v lokalite {city}: {n} izieb, raňajky z miestnych surovín a tipy od domácich.",
    "hu": "{name} családi vendégház itt: {city}. {n} szoba, reggeli helyi termékekből és tippek a házigazdáktól.",
    "fi": "{name} on perheyritys kohteessa {city}: {n} huonetta, aamiainen lähiruoasta ja vinkit paikallisilta.",
    "el": "Το {name} είναι ένα οικογενειακό κατάλυμα στο {city}: {n} δωμάτια, πρωινό με τοπικά προϊόντα και συμβουλές από ντόπιους.",
    "tr": "{name}, {city} bölgesinde aile işletmesi bir butik oteldir: {n} oda, yerel ürünlerle kahvaltı ve bölgeyi bilenlerden öneriler.",
    "ja": "{name}は{city}にある家族経営の宿です。全{n}室、地元の食材を使った朝食をご用意しております。",
    "ko": "{name}는 {city}에 있는 가족이 운영하는 숙소입니다. 객실 {n}개, 지역 식재료로 만든 조식을 제공합니다.",
    "th": "{name} ที่พักบรรยากาศอบอุ่นใน {city} มีห้องพัก {n} ห้อง พร้อมอาหารเช้าจากวัตถุดิบท้องถิ่น",
    "id": "{name} adalah penginapan keluarga di {city}: {n} kamar, sarapan dari bahan lokal dan tips dari warga setempat.",
}

ANALYTICS = [
    '<script async src="https://www.googletagmanager.com/gtag/js?id=G-{code}"></script>\n<script>window.dataLayer=window.dataLayer||[];function gtag(){{dataLayer.push(arguments);}}gtag("js",new Date());gtag("config","G-{code}",{{"anonymize_ip":true}});</script>',
    '<script>var _paq=window._paq=window._paq||[];_paq.push(["trackPageView"]);_paq.push(["enableLinkTracking"]);(function(){{var u="https://analytics.{domain}/";_paq.push(["setTrackerUrl",u+"matomo.php"]);_paq.push(["setSiteId","{small}"]);var d=document,g=d.createElement("script"),s=d.getElementsByTagName("script")[0];g.async=true;g.src=u+"matomo.js";s.parentNode.insertBefore(g,s);}})();</script>',
    '<script defer data-domain="{domain}" src="https://plausible.io/js/script.outbound-links.js"></script>',
    '<script>!function(f,b,e,v,n,t,s){{if(f.fbq)return;n=f.fbq=function(){{n.callMethod?n.callMethod.apply(n,arguments):n.queue.push(arguments)}};if(!f._fbq)f._fbq=n;n.push=n;n.loaded=!0;n.version="2.0";n.queue=[];t=b.createElement(e);t.async=!0;t.src=v;s=b.getElementsByTagName(e)[0];s.parentNode.insertBefore(t,s)}}(window,document,"script","https://connect.facebook.net/en_US/fbevents.js");fbq("init","{num}{small}");fbq("track","PageView");</script>',
    '<script>(function(window,document,dataLayerName,id){{window[dataLayerName]=window[dataLayerName]||[],window[dataLayerName].push({{start:(new Date).getTime(),event:"stg.start"}});var scripts=document.getElementsByTagName("script")[0],tags=document.createElement("script");tags.async=!0,tags.src="https://{short}.containers.piwik.pro/"+id+".js",scripts.parentNode.insertBefore(tags,scripts)}})(window,document,"dataLayer","{uuid}");</script>',
    '<script async src="https://www.googletagmanager.com/gtag/js?id=AW-{num}"></script>\n<script>window.dataLayer=window.dataLayer||[];function gtag(){{dataLayer.push(arguments);}}gtag("js",new Date());gtag("config","AW-{num}");</script>',
]

CONSENT = [
    '<script src="https://cdn.cookielaw.org/scripttemplates/otSDKStub.js" type="text/javascript" charset="UTF-8" data-domain-script="{uuid}"></script>\n<script type="text/javascript">function OptanonWrapper(){{}}</script>',
    '<link rel="preconnect" href="//app.usercentrics.eu">\n<script id="usercentrics-cmp" src="https://app.usercentrics.eu/browser-ui/latest/loader.js" data-settings-id="{short}" async></script>',
    '<script type="text/javascript">var _iub=_iub||[];_iub.csConfiguration={{"siteId":{small},"cookiePolicyId":{num},"lang":"{lang}","banner":{{"acceptButtonDisplay":true,"position":"float-bottom-center"}}}};</script>\n<script type="text/javascript" src="https://cs.iubenda.com/autoblocking/{small}.js"></script>\n<script type="text/javascript" src="//cdn.iubenda.com/cs/iubenda_cs.js" charset="UTF-8" async></script>',
    '<script id="cookieyes" type="text/javascript" src="https://cdn-cookieyes.com/client_data/{short}{short}/script.js"></script>',
    '<div id="cookie-law-info-bar" data-nosnippet="true"><span>We use cookies to give you the best experience. <a role="button" class="cli_settings_button">Settings</a> <a role="button" id="cookie_action_close_header" class="cli-plugin-button">Accept</a></span></div>',
]

CHAT = [
    '<script type="text/javascript">window.$crisp=[];window.CRISP_WEBSITE_ID="{uuid}";(function(){{d=document;s=d.createElement("script");s.src="https://client.crisp.chat/l.js";s.async=1;d.getElementsByTagName("head")[0].appendChild(s);}})();</script>',
    '<script type="text/javascript">var Tawk_API=Tawk_API||{{}},Tawk_LoadStart=new Date();(function(){{var s1=document.createElement("script"),s0=document.getElementsByTagName("script")[0];s1.async=true;s1.src="https://embed.tawk.to/{short}{short}/default";s1.charset="UTF-8";s1.setAttribute("crossorigin","*");s0.parentNode.insertBefore(s1,s0);}})();</script>',
    '<script>window.__lc=window.__lc||{{}};window.__lc.license={num};(function(n,t,c){{function i(n){{return e._h?e._h.apply(null,n):e._q.push(n)}}var e={{_q:[],_h:null,_v:"2.0",on:function(){{i(["on",c.call(arguments)])}},init:function(){{var n=t.createElement("script");n.async=!0,n.type="text/javascript",n.src="https://cdn.livechatinc.com/tracking.js",t.head.appendChild(n)}}}};!n.__lc.asyncInit&&e.init(),n.LiveChatWidget=n.LiveChatWidget||e}}(window,document,[].slice))</script>',
    '<a href="https://wa.me/{phone}" class="wa-button" target="_blank" rel="noopener noreferrer" title="WhatsApp"><svg viewBox="0 0 32 32" width="28" height="28"><path d="M16 3C9 3 3 9 3 16c0 2.3.6 4.5 1.8 6.4L3 29l6.8-1.8C11.6 28.4 13.8 29 16 29c7 0 13-6 13-13S23 3 16 3z"/></svg></a>',
    '',
]

REVIEWS = [
    '<script defer async src="https://cdn.trustindex.io/loader.js?{short}{small}"></script>',
    '<div id="TA_cdsratingsonlynarrow{small}" class="TA_cdsratingsonlynarrow"><ul id="{short}" class="TA_links"><li><a target="_blank" href="https://www.tripadvisor.com/Hotel_Review-d{num}"><img src="https://www.tripadvisor.com/img/cdsi/img2/ratings/traveler/4.5-{num}-5.svg" alt="TripAdvisor"/></a></li></ul></div><script async src="https://www.jscache.com/wejs?wtype=cdsratingsonlynarrow&amp;uniq={small}&amp;locationId={num}&amp;lang={lang}&amp;border=true&amp;display_version=2"></script>',
    '<div class="testimonials"><blockquote>“{review}”<cite>— {cite}</cite></blockquote><blockquote>“We will be back next summer, thank you!”<cite>— Google</cite></blockquote></div>',
    '<div class="reviewsio-carousel-widget" id="carousel-{short}"></div><script src="https://widget.reviews.io/carousel-inline-iframeless/dist.js?_t=2024"></script><script>richSnippetReviewsWidgets("carousel-{short}",{{store:"{slug}",widgetName:"carousel-inline-iframeless",primaryClr:"#1f2d3d"}});</script>',
]

MAPS = [
    '<iframe title="map" src="https://www.google.com/maps/embed?pb=!1m14!1m8!1m3!1d{num}!2d{lng}!3d{lat}!3m2!1i1024!2i768!4f13.1!3m3!1m2!1s0x0%3A0x{short}!2s{qname}!5e0!3m2!1s{lang}!2s!4v1712000000000" width="100%" height="380" style="border:0" allowfullscreen loading="lazy"></iframe>',
    '<link rel="stylesheet" href="https://unpkg.com/leaflet@1.9.4/dist/leaflet.css"/><div id="osm-map" style="height:360px"></div><script src="https://unpkg.com/leaflet@1.9.4/dist/leaflet.js"></script><script>var m=L.map("osm-map").setView([{lat},{lng}],15);L.tileLayer("https://{{s}}.tile.openstreetmap.org/{{z}}/{{x}}/{{y}}.png",{{attribution:"&copy; OpenStreetMap"}}).addTo(m);L.marker([{lat},{lng}]).addTo(m).bindPopup("{name}");</script>',
    '<a class="map-link" href="https://maps.google.com/?q={qname}" target="_blank"><img src="/assets/img/map-static.webp" alt="Map" loading="lazy" width="640" height="320"></a>',
]

NEWSLETTER = [
    '<form action="https://{slug}.us{small_1}.list-manage.com/subscribe/post?u={short}{short}&amp;id={short}" method="post" id="mc-embedded-subscribe-form" name="mc-embedded-subscribe-form" class="validate" target="_blank"><label for="mce-EMAIL">Email</label><input type="email" name="EMAIL" id="mce-EMAIL" required><div style="position:absolute;left:-5000px" aria-hidden="true"><input type="text" name="b_{short}_{short}" tabindex="-1" value=""></div><input type="submit" value="{subscribe}" name="subscribe" class="button"></form>',
    '<div class="klaviyo-form-{code}"></div><script async type="text/javascript" src="https://static.klaviyo.com/onsite/js/klaviyo.js?company_id={code}"></script>',
    '<form class="newsletter" action="/newsletter/subscribe" method="post"><input type="email" name="email" placeholder="Email" required><input type="hidden" name="list" value="guests"><button type="submit">{subscribe}</button></form>',
]

HEADS = {
    "wordpress-divi": ('<meta name="generator" content="WordPress 6.5.2" />\n<meta name="generator" content="Divi v.4.25.0" />\n'
                       '<link rel="stylesheet" id="divi-style-parent-css" href="/wp-content/themes/Divi/style-static.min.css?ver=4.25.0" media="all" />\n'
                       '<script src="/wp-includes/js/jquery/jquery.min.js?ver=3.7.1" id="jquery-core-js"></script>\n'
                       '<script src="/wp-includes/js/jquery/jquery-migrate.min.js?ver=3.4.1" id="jquery-migrate-js"></script>'),
    "wordpress": ('<meta name="generator" content="WordPress 6.6.1" />\n<meta name="generator" content="Elementor 3.23.4; features: e_optimized_css_loading; settings: css_print_method-external" />\n'
                  '<link rel="stylesheet" id="hello-elementor-css" href="/wp-content/themes/hello-elementor/style.min.css?ver=3.1.1" media="all" />\n'
                  '<link rel="stylesheet" id="elementor-frontend-css" href="/wp-content/plugins/elementor/assets/css/frontend.min.css?ver=3.23.4" media="all" />\n'
                  '<script src="/wp-includes/js/jquery/jquery.min.js?ver=3.7.1" id="jquery-core-js"></script>\n'
                  '<link rel="https://api.w.org/" href="/wp-json/" /><link rel="EditURI" type="application/rsd+xml" title="RSD" href="/xmlrpc.php?rsd" />'),
    "joomla": ('<meta name="generator" content="Joomla! - Open Source Content Management" />\n'
               '<link href="/templates/cassiopeia/css/template.min.css?4.4.5" rel="stylesheet" />\n'
               '<script src="/media/system/js/core.min.js?83f2c9"></script>\n'
               '<script type="application/json" class="joomla-script-options new">{{"joomla.jtext":{{"ERROR":"Error"}},"system.paths":{{"root":"","base":""}}}}</script>'),
    "drupal": ('<meta name="Generator" content="Drupal 10 (https://www.drupal.org)" />\n'
               '<link rel="stylesheet" media="all" href="/sites/default/files/css/css_{short}.css?delta=0&amp;language=en&amp;theme=olivero" />\n'
               '<script type="application/json" data-drupal-selector="drupal-settings-json">{{"path":{{"baseUrl":"\\/","currentPath":"node\\/1","isFront":true}},"ajaxTrustedUrl":[]}}</script>'),
    "wix": ('<meta name="generator" content="Wix.com Website Builder"/>\n<meta http-equiv="X-Wix-Meta-Site-Id" content="{uuid}"/>\n'
            '<link rel="preconnect" href="https://static.parastorage.com" crossorigin/>\n'
            '<script src="https://static.parastorage.com/services/wix-thunderbolt/dist/main.6f8d0b3e.bundle.min.js" async></script>\n'
            '<script type="application/json" id="wix-viewer-model">{{"site":{{"metaSiteId":"{uuid}","isHttps":true}},"language":"{lang}"}}</script>'),
    "squarespace": ('<!-- This is Squarespace. --><!-- {slug} -->\n<link rel="stylesheet" type="text/css" href="https://static1.squarespace.com/static/versioned-site-css/{short}/12/{short}{short}/site.css"/>\n'
                    '<script type="text/javascript" crossorigin="anonymous" defer src="https://assets.squarespace.com/universal/scripts-compressed/extract-css-runtime-{short}-min.en-US.js"></script>\n'
                    '<script>Static.SQUARESPACE_CONTEXT = {{"website":{{"id":"{short}","siteTitle":"{name}","baseUrl":"https://www.{domain}"}}}};</script>'),
    "webflow": ('<meta content="Webflow" name="generator"/>\n<link href="https://cdn.prod.website-files.com/{short}{short}/css/{slug}.webflow.{short}.min.css" rel="stylesheet" type="text/css"/>\n'
                '<script src="https://ajax.googleapis.com/ajax/libs/webfont/1.6.26/webfont.js" type="text/javascript"></script>'),
    "jimdo": ('<meta name="generator" content="Jimdo Creator"/>\n<link href="https://assets.jimstatic.com/web.css.{short}.css" rel="stylesheet"/>\n'
              '<script src="https://assets.jimstatic.com/ckies.js.{short}.js"></script>'),
    "godaddy": ('<meta name="generator" content="Starfield Technologies; Go Daddy Website Builder 8.0.0000"/>\n'
                '<link rel="stylesheet" href="//img1.wsimg.com/blobby/go/{uuid}/gpub/{short}/styles.css"/>\n'
                '<script src="//img1.wsimg.com/ceph-p3-01/website-builder-data-prod/static/widgets/UX.4.34.3.js" crossorigin></script>'),
    "duda": ('<meta name="generator" content="Duda" />\n<link rel="stylesheet" href="https://irp.cdn-website.com/{short}/dms3rep/multi/site.css"/>\n'
             '<script src="https://static.cdn-website.com/mnlt/production/5210/_dm/s/rt/dist/scripts/d-js-one-runtime-unified-desktop.min.js"></script>'),
    "weebly": ('<link rel="stylesheet" type="text/css" href="//cdn2.editmysite.com/css/sites.css?buildTime=1712000000" />\n'
               '<script src="//cdn2.editmysite.com/js/jquery-1.8.3.min.js"></script>\n<script>_W = _W || {{}}; _W.configDomain = "www.weebly.com";</script>'),
    "framer": ('<meta name="generator" content="Framer 3f0b1e4">\n<link rel="modulepreload" href="https://framerusercontent.com/sites/{short}/react.{short}.mjs">\n'
               '<script type="module" async data-framer-bundle="main" src="https://framerusercontent.com/sites/{short}/script_main.{short}.mjs"></script>'),
    "custom": ('<link rel="stylesheet" href="/assets/css/main.css?v=2024.3">\n'
               '<link rel="stylesheet" href="https://cdnjs.cloudflare.com/ajax/libs/font-awesome/6.5.1/css/all.min.css">\n'
               '<script src="https://code.jquery.com/jquery-3.7.1.min.js" integrity="sha256-/JqT3SQfawRcv/BIHPThkBvs0OEvtFFmqPF/lYI/Cxo=" crossorigin="anonymous"></script>'),
}
PLATFORMS = tuple(HEADS)

WRAP = {"wordpress-divi": "et_pb_section et_pb_fullwidth_section", "wordpress": "elementor-section elementor-top-section",
        "joomla": "container-component", "drupal": "layout layout--onecol", "wix": "wixui-section comp-lu8k2f",
        "squarespace": "page-section full-bleed-section", "webflow": "section wf-section", "jimdo": "jmd-section",
        "godaddy": "widget widget-header", "duda": "dmRespRow", "weebly": "wsite-section-wrap", "framer": "framer-1x8k2",
        "custom": "section"}


def _h(seed: str, n: int = 8) -> str:
    return hashlib.sha256(seed.encode()).hexdigest()[:n]


def _pick(seq: list[str], seed: str) -> str:
    return seq[int(_h(seed, 6), 16) % len(seq)]


def fill(template: str, p: dict) -> str:
    h = _h(p["slug"], 40)
    num = int(h[:7], 16)
    return template.format(
        code=h[:8].upper(), num=num, small=num % 9000 + 1000, small_1=num % 19 + 1, short=h[:10],
        uuid=f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:32]}", slug=p["slug"], domain=p["domain"],
        name=p["name"], qname=p["name"].replace(" ", "+"), lang=p["lang"], phone=str(num * 1931)[:11],
        lat=f"{(num % 1200) / 100 + 10:.4f}", lng=f"{(num % 3400) / 100 - 12:.4f}",
        review=p.get("review", "Lovely stay, the breakfast was wonderful and the staff so helpful."),
        cite=p.get("cite", "Tripadvisor"), subscribe=WORDS[p["lang"]][12])


def head(p: dict) -> str:
    meta = fill(HEADS[p["theme_platform"]], p)
    ld = ('<script type="application/ld+json">{{"@context":"https://schema.org","@type":"{}","name":"{}",'
          '"address":{{"@type":"PostalAddress","addressLocality":"{}","addressCountry":"{}"}},"url":"{}",'
          '"telephone":"+{}"}}</script>').format(p.get("schema", "Hotel"), p["name"], p["city"], p["country"],
                                                p["final_url"], fill("{phone}", p))
    consent = fill(_pick(CONSENT, p["slug"] + "consent"), p)
    return (f'<head>\n<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f'<title>{p["name"]} – {p["city"]}</title>\n'
            f'<meta name="description" content="{p.get("tagline", p["name"] + ", " + p["city"])}">\n'
            f'<meta property="og:title" content="{p["name"]}"><meta property="og:url" content="{p["final_url"]}">\n'
            f'<meta property="og:image" content="{p["final_url"]}images/og.jpg">\n'
            f'<link rel="canonical" href="{p["final_url"]}">\n<link rel="icon" href="/favicon.ico">\n{consent}\n{meta}\n'
            '<link rel="preconnect" href="https://fonts.gstatic.com" crossorigin>\n'
            '<link href="https://fonts.googleapis.com/css2?family=Cormorant+Garamond:wght@500;600&family=Mulish:wght@400;600&display=swap" rel="stylesheet">\n'
            f'{fill(_pick(ANALYTICS, p["slug"] + "an"), p)}\n{ld}\n{p.get("head_extra", "")}\n</head>')


def rooms(p: dict, w: tuple) -> str:
    base = 55 + int(_h(p["slug"] + "price", 2), 16) % 150
    cur = p.get("currency", "€")
    cards = "".join(
        f'<article class="room-card"><img src="/images/rooms/{p["slug"]}-{i + 1}.jpg" alt="{t}" loading="lazy" width="600" height="400">'
        f'<h3>{t}</h3><p>{2 + i} · {20 + 8 * i} m²</p><p class="price">{cur} {base + 35 * i} <small>{w[10]}</small></p>'
        f'<a class="room-more" href="/{w[1].lower()}/{i + 1}/">›</a></article>'
        for i, t in enumerate(w[11]))
    return f'<section id="rooms" class="{WRAP[p["theme_platform"]]} rooms"><h2>{w[5]}</h2><div class="room-list">{cards}</div></section>'


def body(p: dict) -> str:
    w = WORDS[p["lang"]]
    slug, cls = p["slug"], WRAP[p["theme_platform"]]
    nav = "".join(f'<li class="menu-item"><a href="/{x.lower().replace(" ", "-")}/">{x}</a></li>' for x in w[1:4])
    nav += p.get("nav_extra", "")
    review = "" if p.get("no_review") else fill(_pick(REVIEWS, slug + "rv"), p)
    chat = "" if p.get("no_chat") else fill(_pick(CHAT, slug + "ch"), p)
    maps = fill(_pick(MAPS, slug + "mp"), p)
    news = fill(_pick(NEWSLETTER, slug + "nl"), p)
    second = fill(_pick(ANALYTICS, slug + "an2"), p) if _h(slug, 1) in "02468ace" else ""
    return f"""<body class="home page-id-{int(_h(slug, 3), 16)} {p["theme_platform"]}">
<a class="skip-link" href="#main">Skip to content</a>
<header id="masthead" class="site-header {cls}"><div class="branding"><a href="/" rel="home"><img src="/images/logo-{slug}.png" alt="{p["name"]}" width="180" height="60"></a></div>
<nav id="site-navigation" class="main-navigation" aria-label="Main"><ul id="primary-menu" class="menu"><li class="menu-item current-menu-item"><a href="/">{w[0]}</a></li>{nav}</ul></nav>
<div class="header-contact"><a href="tel:+{fill("{phone}", p)}"><i class="fa fa-phone"></i> +{fill("{phone}", p)}</a> <a href="mailto:{p.get("email", "info@" + p["domain"])}">{p.get("email", "info@" + p["domain"])}</a></div>
{p.get("header_extra", "")}
</header>
<main id="main" class="site-main">
<section class="hero {cls}" style="background-image:url('/images/hero-{slug}.jpg')">
<div class="hero-inner"><h1>{w[4]} {p["name"]}</h1><p class="tagline">{p.get("tagline", p["city"])}</p></div>
<div class="hero-booking">
{p["snippet"]}
</div>
</section>
<section class="intro {cls}"><h2>{p["name"]}</h2><p>{p.get("intro", INTRO[p["lang"]].format(name=p["name"], city=p["city"], n=6 + int(_h(slug, 1), 16)))}</p></section>
{rooms(p, w)}
{p.get("middle", "")}
<section id="reviews" class="{cls}"><h2>{w[6]}</h2>{review}</section>
<section id="location" class="{cls}"><h2>{w[7]}</h2><address>{p.get("address", p["city"])}</address>{maps}</section>
<section class="newsletter {cls}"><h3>{w[9]}</h3>{news}</section>
</main>
<footer id="colophon" class="site-footer {cls}">
<ul class="social"><li><a href="https://www.facebook.com/{slug}" target="_blank" rel="noopener">Facebook</a></li><li><a href="https://www.instagram.com/{slug.replace("-", "_")}/" target="_blank" rel="noopener">Instagram</a></li></ul>
{p.get("footer", "")}
<p class="copyright">© 2025 {p["name"]} · {p["city"]}. {w[8]}. <a href="/privacy/">Privacy</a> · <a href="/terms/">Terms</a></p>
</footer>
{chat}
{second}
{p.get("tail", "")}
</body>"""


def page(p: dict) -> str:
    return f'<!DOCTYPE html>\n<html lang="{p["lang"]}">\n{head(p)}\n{body(p)}\n</html>\n'

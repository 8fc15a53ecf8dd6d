"""Site chrome for the held-out detection corpus: what surrounds a booking engine on a real small-hotel
home page (CMS markup, nav, hero, rooms, reviews, map, chat, cookie banner, analytics, footer).

The engine snippet (or, on a negative page, its distractors) is passed in; everything here is the
noise a detector must see past. Written from how WordPress, Wix, Squarespace, Webflow and hand-made
sites look, not from any detector's catalogue.
"""

from __future__ import annotations

import hashlib

WORDS = {
    "en": ("Home", "Rooms", "Gallery", "Location", "Contact", "Welcome to", "Our rooms", "What guests say",
           "Find us", "All rights reserved", "Double room", "Family suite", "Garden studio", "per night"),
    "es": ("Inicio", "Habitaciones", "Galería", "Ubicación", "Contacto", "Bienvenidos a", "Nuestras habitaciones",
           "Opiniones", "Cómo llegar", "Todos los derechos reservados", "Habitación doble", "Suite familiar",
           "Estudio jardín", "por noche"),
    "pt": ("Início", "Quartos", "Galeria", "Localização", "Contato", "Bem-vindo à", "Nossos quartos",
           "Avaliações", "Como chegar", "Todos os direitos reservados", "Quarto duplo", "Suíte família",
           "Chalé jardim", "por noite"),
    "it": ("Home", "Camere", "Galleria", "Dove siamo", "Contatti", "Benvenuti a", "Le nostre camere",
           "Dicono di noi", "Come raggiungerci", "Tutti i diritti riservati", "Camera doppia", "Suite famiglia",
           "Junior suite", "a notte"),
    "de": ("Start", "Zimmer", "Galerie", "Anreise", "Kontakt", "Willkommen im", "Unsere Zimmer",
           "Gästebewertungen", "So finden Sie uns", "Alle Rechte vorbehalten", "Doppelzimmer", "Familiensuite",
           "Gartenstudio", "pro Nacht"),
    "fr": ("Accueil", "Chambres", "Galerie", "Accès", "Contact", "Bienvenue à", "Nos chambres", "Avis clients",
           "Nous trouver", "Tous droits réservés", "Chambre double", "Suite familiale", "Studio jardin",
           "par nuit"),
}

ANALYTICS = [
    '<script async src="https://www.googletagmanager.com/gtag/js?id=G-{code}"></script>\n<script>window.dataLayer=window.dataLayer||[];function gtag(){{dataLayer.push(arguments);}}gtag("js",new Date());gtag("config","G-{code}");</script>',
    '<script>(function(w,d,s,l,i){{w[l]=w[l]||[];w[l].push({{"gtm.start":new Date().getTime(),event:"gtm.js"}});var f=d.getElementsByTagName(s)[0],j=d.createElement(s),dl=l!="dataLayer"?"&l="+l:"";j.async=true;j.src="https://www.googletagmanager.com/gtm.js?id="+i+dl;f.parentNode.insertBefore(j,f);}})(window,document,"script","dataLayer","GTM-{code}");</script>',
    '<script>!function(f,b,e,v,n,t,s){{if(f.fbq)return;n=f.fbq=function(){{n.callMethod?n.callMethod.apply(n,arguments):n.queue.push(arguments)}};if(!f._fbq)f._fbq=n;n.push=n;n.loaded=!0;n.version="2.0";n.queue=[];t=b.createElement(e);t.async=!0;t.src=v;s=b.getElementsByTagName(e)[0];s.parentNode.insertBefore(t,s)}}(window,document,"script","https://connect.facebook.net/en_US/fbevents.js");fbq("init","41{num}");fbq("track","PageView");</script>',
    '<script>(function(h,o,t,j,a,r){{h.hj=h.hj||function(){{(h.hj.q=h.hj.q||[]).push(arguments)}};h._hjSettings={{hjid:{num},hjsv:6}};a=o.getElementsByTagName("head")[0];r=o.createElement("script");r.async=1;r.src=t+h._hjSettings.hjid+j+h._hjSettings.hjsv;a.appendChild(r);}})(window,document,"https://static.hotjar.com/c/hotjar-",".js?sv=");</script>',
    '<script type="text/javascript">(function(c,l,a,r,i,t,y){{c[a]=c[a]||function(){{(c[a].q=c[a].q||[]).push(arguments)}};t=l.createElement(r);t.async=1;t.src="https://www.clarity.ms/tag/"+i;y=l.getElementsByTagName(r)[0];y.parentNode.insertBefore(t,y);}})(window,document,"clarity","script","{code}");</script>',
]

COOKIES = [
    '<script id="cookieyes" type="text/javascript" src="https://cdn-cookieyes.com/client_data/{code}/script.js"></script>',
    '<script id="Cookiebot" src="https://consent.cookiebot.com/uc.js" data-cbid="{uuid}" data-blockingmode="auto" type="text/javascript"></script>',
    '<div id="cmplz-cookiebanner-container"><div class="cmplz-cookiebanner cmplz-hidden banner-1 optin" aria-modal="true" data-nosnippet="true" role="dialog"><div class="cmplz-message"><p>We use cookies to improve your stay on our website.</p></div><div class="cmplz-buttons"><button class="cmplz-btn cmplz-accept">Accept</button><button class="cmplz-btn cmplz-deny">Deny</button></div></div></div>',
    '<div class="cookie-notice" id="cookie-notice" role="dialog"><span>This site uses cookies. <a href="/privacy-policy/">Privacy policy</a></span> <button onclick="document.getElementById(\'cookie-notice\').remove();localStorage.setItem(\'cookies\',\'1\')">OK</button></div>',
]

CHAT = [
    '<script src="//code.tidio.co/{code}.js" async></script>',
    '<script>window.intercomSettings={{api_base:"https://api-iam.intercom.io",app_id:"{short}"}};(function(){{var w=window;var ic=w.Intercom;if(typeof ic==="function"){{ic("update",w.intercomSettings);}}else{{var d=document;var i=function(){{i.c(arguments);}};i.q=[];i.c=function(args){{i.q.push(args);}};w.Intercom=i;var l=function(){{var s=d.createElement("script");s.type="text/javascript";s.async=true;s.src="https://widget.intercom.io/widget/{short}";var x=d.getElementsByTagName("script")[0];x.parentNode.insertBefore(s,x);}};l();}}}})();</script>',
    '<script id="ze-snippet" src="https://static.zdassets.com/ekr/snippet.js?key={uuid}"></script>',
    '<a class="whatsapp-float" href="https://wa.me/{phone}?text=Hello%2C%20I%20would%20like%20information" target="_blank" rel="noopener" aria-label="WhatsApp"><i class="fab fa-whatsapp"></i></a>',
]

REVIEWS = [
    '<div id="TA_selfserveprop{num}" class="TA_selfserveprop"><ul id="{short}" class="TA_links"><li><a target="_blank" href="https://www.tripadvisor.com/"><img src="https://www.tripadvisor.com/img/cdsi/img2/branding/v2/Tripadvisor_lockup_horizontal_secondary-11900-2.svg" alt="TripAdvisor"/></a></li></ul></div><script async src="https://www.jscache.com/wejs?wtype=selfserveprop&amp;uniq={num}&amp;locationId={num}&amp;lang=en_US&amp;rating=true&amp;nreviews=5&amp;writereviewlink=true&amp;popIdx=true&amp;iswide=false&amp;border=true&amp;display_version=2" data-loadtrk onload="this.loadtrk=true"></script>',
    '<iframe src="https://api.trustyou.com/hotels/{uuid}/seal.html?size=m&amp;lang=en" allowtransparency="true" frameborder="0" scrolling="no" height="130" width="160" title="TrustYou"></iframe>',
    '<script src="https://static.elfsight.com/platform/platform.js" data-use-service-core defer></script>\n<div class="elfsight-app-{uuid}" data-elfsight-app-lazy></div>',
    '<blockquote class="review">“Spotless rooms, a generous breakfast and the kindest hosts.” <cite>— Google review</cite></blockquote>',
]

SOCIAL = ('<ul class="social"><li><a href="https://www.facebook.com/{slug}" target="_blank">Facebook</a></li>'
          '<li><a href="https://www.instagram.com/{slug}/" target="_blank">Instagram</a></li></ul>')

MAP = ('<iframe src="https://www.google.com/maps/embed?pb=!1m18!1m12!1m3!1d3{num}!2d-3.{num}!3d40.{num}!2m3!1f0!2f0!3f0!3m2'
       '!1i1024!2i768!4f13.1!3m3!1m2!1s0x0%3A0x{short}!2s{qname}!5e0!3m2!1sen!2sus!4v1699999999999" width="600" height="450" '
       'style="border:0;" allowfullscreen="" loading="lazy" referrerpolicy="no-referrer-when-downgrade"></iframe>')


def _h(seed: str, n: int = 8) -> str:
    return hashlib.sha1(seed.encode()).hexdigest()[:n]


def _pick(seq: list[str], seed: str) -> str:
    return seq[int(_h(seed, 6), 16) % len(seq)]


def fill(template: str, slug: str, name: str) -> str:
    """Formats a noise template with stable fake ids for this page."""
    h = _h(slug, 32)
    return template.format(code=h[:10].upper(), num=int(h[:6], 16), short=h[:8], phone="34" + str(int(h[:8], 16))[:9],
                           uuid=f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:32]}", slug=slug,
                           qname=name.replace(" ", "+"))


def head(p: dict) -> str:
    """The <head> of a page in its platform's style."""
    platform, slug, name = p["platform"], p["slug"], p["name"]
    meta = {
        "wordpress": ('<meta name="generator" content="WordPress 6.4.3" />\n'
                      '<link rel="stylesheet" id="astra-theme-css-css" href="/wp-content/themes/astra/assets/css/minified/main.min.css?ver=4.6.4" media="all" />\n'
                      '<link rel="stylesheet" href="/wp-content/plugins/elementor/assets/css/frontend-lite.min.css?ver=3.19.2" media="all" />\n'
                      '<script src="/wp-includes/js/jquery/jquery.min.js?ver=3.7.1" id="jquery-core-js"></script>'),
        "wix": ('<meta name="generator" content="Wix.com Website Builder"/>\n'
                '<link rel="preconnect" href="https://static.parastorage.com" crossorigin>\n'
                '<script src="https://static.parastorage.com/services/wix-thunderbolt/dist/main.4c7c0f4b.bundle.min.js" async></script>'),
        "squarespace": ('<!-- This is Squarespace. --><!-- ' + slug + ' -->\n'
                        '<link rel="stylesheet" type="text/css" href="https://static1.squarespace.com/static/versioned-site-css/64a1/5/5c5a519771c10ba3470d8101/64a1f0/1520/site.css"/>\n'
                        '<script crossorigin="anonymous" src="https://assets.squarespace.com/universal/scripts-compressed/common-vendors-stable-8d1d1b7a5e9f4c2c-min.en-US.js" defer></script>'),
        "webflow": ('<meta content="Webflow" name="generator"/>\n'
                    f'<link href="https://assets-global.website-files.com/{_h(slug, 24)}/css/{slug}.webflow.css" rel="stylesheet" type="text/css"/>\n'
                    '<script src="https://ajax.googleapis.com/ajax/libs/webfont/1.6.26/webfont.js" type="text/javascript"></script>'),
        "custom": ('<link rel="stylesheet" href="https://cdn.jsdelivr.net/npm/bootstrap@5.3.2/dist/css/bootstrap.min.css">\n'
                   '<link rel="stylesheet" href="/css/style.css?v=3">'),
    }[platform]
    ld = ('<script type="application/ld+json">{{"@context":"https://schema.org","@type":"Hotel","name":"{}",'
          '"address":{{"@type":"PostalAddress","addressLocality":"{}"}},"url":"{}"}}</script>').format(name, p["city"], p["final_url"])
    extra = p.get("head_extra", "")
    return (f'<head>\n<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f'<title>{name} | {p["city"]}</title>\n<meta name="description" content="{name}, a small hotel in {p["city"]}.">\n'
            f'<link rel="canonical" href="{p["final_url"]}">\n{meta}\n'
            '<link rel="preconnect" href="https://fonts.googleapis.com">\n'
            '<link href="https://fonts.googleapis.com/css2?family=Lora:wght@400;600&family=Inter:wght@400;500&display=swap" rel="stylesheet">\n'
            f'{fill(_pick(ANALYTICS, slug + "a"), slug, name)}\n{ld}\n{extra}\n</head>')


def rooms(w: tuple, slug: str) -> str:
    base = 60 + int(_h(slug, 2), 16) % 120
    cards = "".join(
        f'<div class="room-card"><img src="/images/room-{i + 1}.jpg" alt="{t}" loading="lazy"><h3>{t}</h3>'
        f'<p class="price">{base + 30 * i} € {w[13]}</p><a class="more" href="/rooms/{i + 1}/">→</a></div>'
        for i, t in enumerate((w[10], w[11], w[12])))
    return f'<section id="rooms" class="rooms"><h2>{w[6]}</h2><div class="room-grid">{cards}</div></section>'


def body(p: dict) -> str:
    """Nav, hero with the booking snippet, rooms, reviews, map, footer and the noise scripts."""
    w = WORDS.get(p["lang"], WORDS["en"])
    slug, name = p["slug"], p["name"]
    cls = {"wordpress": "elementor-section elementor-top-section", "wix": "wixui-section comp-lq3k2",
           "squarespace": "page-section layout-engine-section", "webflow": "section w-container",
           "custom": "container"}[p["platform"]]
    nav = "".join(f'<li><a href="/{x.lower()}/">{x}</a></li>' for x in w[1:5])
    review = fill(_pick(REVIEWS, slug + "r"), slug, name) if not p.get("no_review") else ""
    chat = fill(_pick(CHAT, slug + "c"), slug, name) if not p.get("no_chat") else ""
    cookie = fill(_pick(COOKIES, slug + "k"), slug, name)
    first = ANALYTICS.index(_pick(ANALYTICS, slug + "a"))
    second = fill(ANALYTICS[(first + 1 + int(_h(slug + "b", 2), 16) % 4) % len(ANALYTICS)], slug, name)
    return f"""<body class="home page-template-default">
{cookie}
<header class="site-header"><a class="logo" href="/"><img src="/images/logo.svg" alt="{name}"></a>
<nav class="main-nav"><ul><li><a href="/">{w[0]}</a></li>{nav}</ul></nav>
<a class="phone" href="tel:+{int(_h(slug, 8), 16)}">+{int(_h(slug, 8), 16)}</a></header>
<main>
<section class="hero {cls}" style="background-image:url('/images/hero.jpg')">
<h1>{w[5]} {name}</h1><p class="tagline">{p.get("tagline", p["city"])}</p>
<div class="booking-area">
{p["snippet"]}
</div>
</section>
<section class="intro {cls}"><p>{name} is a family-run house in {p["city"]} with {8 + int(_h(slug, 1), 16)} rooms, breakfast with local produce and a garden terrace.</p></section>
{rooms(w, slug)}
<section id="reviews" class="{cls}"><h2>{w[7]}</h2>{review}</section>
{p.get("middle", "")}
<section id="location" class="{cls}"><h2>{w[8]}</h2>{fill(MAP, slug, name) if not p.get("no_map") else ""}</section>
</main>
<footer class="site-footer">{fill(SOCIAL, slug, name)}
{p.get("footer", "")}
<p>{name} · {p["city"]} · <a href="mailto:info@{p["domain"]}">info@{p["domain"]}</a></p>
<p>© 2024 {name}. {w[9]}. <a href="/privacy-policy/">Privacy</a> · <a href="/imprint/">Imprint</a></p></footer>
{chat}
{second}
{p.get("tail", "")}
</body>"""


def page(p: dict) -> str:
    return f'<!DOCTYPE html>\n<html lang="{p["lang"]}">\n{head(p)}\n{body(p)}\n</html>\n'

"""Pages of held-out set C without a booking engine of their own: OTA links and affiliate boxes, restaurant
tables, tours, spa appointments, event enquiries with dates, vouchers, payments, a sister hotel's booking link,
an availability request by e-mail, ferries, golf tee times, heavy consent and analytics."""

from __future__ import annotations

from entry_c import E


def N(slug, name, city, country, tld, lang, region, platform, snippet, **extra):
    return E(slug, name, city, country, tld, lang, region, platform, None, None, "none", None, snippet, **extra)


NEGATIVES = [
    N("apartmani-vala-hvar", "Apartments Vala", "Hvar", "HR", "hr", "en", "Europe", "jimdo",
      '<a class="btn" href="https://www.booking.com/hotel/hr/apartments-vala-hvar.html?aid=356980&amp;label=gog235jc" target="_blank" rel="nofollow">Book on Booking.com</a>\n'
      '<img src="https://cf.bstatic.com/static/img/review/badges/badge-rating-9-2.png" alt="Booking.com guest review 9.2">'),
    N("lakeview-motor-lodge", "Lakeview Motor Lodge", "Lake George, NY", "US", "com", "en", "North America", "weebly",
      '<form class="aff-search" action="https://www.expedia.com/Hotel-Search" method="get" target="_blank">\n'
      '<input type="hidden" name="destination" value="Lake George, New York"><input type="hidden" name="affcid" value="US.DIRECT.PHG.1100l392">\n'
      '<label>Check-in <input type="date" name="startDate"></label><label>Check-out <input type="date" name="endDate"></label>\n'
      '<label>Guests <input type="number" name="adults" value="2"></label><button>Search deals</button></form>', currency="$"),
    N("auberge-du-vieux-port-honfleur", "Auberge du Vieux Port", "Honfleur", "FR", "fr", "fr", "Europe", "wordpress-astra",
      '<h2>Notre restaurant</h2><p>Réservez votre table en ligne</p>\n'
      '<iframe src="https://widget.thefork.com/fr/c3a1f7b2-88e1-4b5a-9d0e-7f2a1c4b6e90?step=date" width="100%" height="620" frameborder="0" title="Réserver une table"></iframe>\n'
      '<p>Pour l\'hébergement, appelez-nous au +33 2 31 89 00 00.</p>'),
    N("souk-rooftop-house-dubai", "Souk Rooftop House", "Dubai", "AE", "ae", "en", "Middle East", "webflow",
      '<h2>Dine on the rooftop</h2>\n<script src="https://www.sevenrooms.com/widget/embed.js"></script>\n'
      '<div id="sr-res-root" class="sr-md sr-dark sr-#c8a15a">Reserve a table</div>\n'
      '<script>SevenroomsWidget.init({venueId:"soukrooftop",triggerId:"sr-res-root",type:"reservations",styleButton:true,clientToken:""});</script>\n'
      '<p>Room enquiries: <a href="mailto:stay@soukrooftop.ae">stay@soukrooftop.ae</a></p>', currency="AED"),
    N("gasthaus-zur-krone-bamberg", "Gasthaus zur Krone", "Bamberg", "DE", "de", "de", "Europe", "typo3",
      '<h2>Tisch reservieren</h2>\n<div class="quandoo-widget-builder" data-widget-id="7f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b"></div>\n'
      '<script src="https://booking-widget.quandoo.com/index.js" data-merchant-id="88213" data-theme="brand"></script>\n'
      '<p>Zimmeranfragen bitte telefonisch oder per E-Mail.</p>'),
    N("arenal-rainforest-cabinas", "Cabinas Bosque Arenal", "La Fortuna", "CR", "cr", "es", "Latin America", "wordpress",
      '<h2>Tours y aventuras</h2>\n<script src="https://fareharbor.com/embeds/api/v1/?autolightframe=yes"></script>\n'
      '<a href="https://fareharbor.com/embeds/book/arenaladventures/items/?full-items=yes&amp;flow=no" class="fh-button-true-flat-color">Reservar tour</a>\n'
      '<p>Hospedaje: escríbanos por WhatsApp.</p>', currency="₡"),
    N("moab-red-rock-lodge", "Red Rock Lodge", "Moab, UT", "US", "com", "en", "North America", "squarespace",
      '<h2>Guided jeep tours</h2>\n<script type="text/javascript" src="https://js.peek.com/widget.js" async></script>\n'
      '<a class="peek-book-btn" href="https://book.peek.com/s/2b7f6c1e-9a3d-4e8f-b1c2-7d6e5f4a3b21/xGmZ" data-purchase-type="Activity">Book a Tour</a>\n'
      '<p>To reserve a room please call (435) 555-0142.</p>', currency="$"),
    N("byron-hinterland-retreat", "Hinterland Retreat", "Byron Bay", "AU", "com.au", "en", "Oceania", "shopify",
      '<h2>Day spa</h2>\n<a class="button" href="https://www.fresha.com/book-now/hinterland-retreat-spa-x8k2pq/services?lid=1188213&amp;pId=1122019">Book a treatment</a>\n'
      '<p>Accommodation packages on request.</p>', currency="A$"),
    N("ubud-yoga-house", "Ubud Yoga House", "Ubud", "ID", "com", "en", "Asia", "wix",
      '<h2>Class schedule</h2>\n<healcode-widget data-type="schedules" data-widget-partner="object" data-widget-id="6c1b2a3d4e5" data-widget-version="1"></healcode-widget>\n'
      '<script src="https://widgets.mindbodyonline.com/javascripts/healcode.js" type="text/javascript"></script>'),
    N("franschhoek-vineyard-venue", "Klein Olyf Vineyard Venue", "Franschhoek", "ZA", "co.za", "en", "Africa", "wordpress-avada",
      '<h2>Weddings &amp; Events</h2>\n<form class="gform" method="post" action="/events/#gf_3" id="gform_3">\n'
      '<label>Event date <input type="date" name="input_4"></label><label>Arrival <input type="date" name="input_5"></label><label>Departure <input type="date" name="input_6"></label>\n'
      '<label>Number of guests <input type="number" name="input_7"></label><label>Accommodation needed? <select name="input_8"><option>Yes</option><option>No</option></select></label>\n'
      '<input type="hidden" name="gform_submit" value="3"><button type="submit">Send enquiry</button></form>', currency="R"),
    N("the-old-bakery-rye", "The Old Bakery", "Rye", "GB", "co.uk", "en", "Europe", "squarespace",
      '<h2>Give the gift of a stay</h2>\n<div class="gift-up-target" data-site-id="4f2c1a9e-7b3d-4c8e-a1f0-9d2e6b5c7a31" data-platform="Squarespace"></div>\n'
      '<script type="text/javascript">(function(g,i,f,t,u,p,s){g[u]=g[u]||function(){(g[u].q=g[u].q||[]).push(arguments)};p=i.createElement(f);p.async=1;p.src=t;s=i.getElementsByTagName(f)[0];s.parentNode.insertBefore(p,s)})(window,document,"script","https://cdn.giftup.app/dist/gift-up.js","giftup");</script>\n'
      '<p>To book a room call us on 01797 000000.</p>', currency="£"),
    N("tasman-bay-bach", "Tasman Bay Bach", "Kaiteriteri", "NZ", "co.nz", "en", "Oceania", "framer",
      '<h2>Pay your deposit</h2>\n<a class="btn" href="https://buy.stripe.com/5kA8yQ2bX0Jd4ZW3cc" target="_blank">Pay NZ$200 deposit</a>\n'
      '<form action="https://www.paypal.com/donate" method="post" target="_top"><input type="hidden" name="hosted_button_id" value="Q8ZK3LJ7T2M4W"><button>Donate to the reserve</button></form>',
      currency="NZ$"),
    N("hostal-las-palmas-mancora", "Hostal Las Palmas", "Máncora", "PE", "pe", "es", "Latin America", "site123",
      '<div class="hermano"><h3>Nuestro hotel hermano en Lima</h3><p>Casa Barranco, a pasos del malecón.</p>\n'
      '<a href="https://www.casabarranco.pe/reservar/?origen=laspalmas">Reservar en Casa Barranco</a></div>\n'
      '<p>En Máncora reservas por teléfono o WhatsApp: +51 900 000 000</p>', currency="S/"),
    N("lake-tahoe-a-frame", "Tahoe A-Frame", "South Lake Tahoe, CA", "US", "com", "en", "North America", "framer",
      '<div class="book-links"><a href="https://www.airbnb.com/rooms/53012277" target="_blank">Book on Airbnb</a>\n'
      '<a href="https://www.vrbo.com/2876543" target="_blank">Book on Vrbo</a>\n'
      '<a href="https://www.google.com/travel/hotels/entity/CgoI0oXQ8p3Bq7VNEAE" target="_blank">Check prices on Google</a></div>', currency="$"),
    N("kuta-lombok-surf-inn", "Kuta Lombok Surf Inn", "Kuta, Lombok", "ID", "co.id", "id", "Asia", "wordpress",
      '<p>Pesan kamar melalui mitra kami:</p><a href="https://www.traveloka.com/id-id/hotel/indonesia/kuta-lombok-surf-inn-9000001234567" target="_blank">Traveloka</a>\n'
      '<a href="https://www.tiket.com/hotel/indonesia/kuta-lombok-surf-inn-108001534812345" target="_blank">tiket.com</a>', currency="Rp"),
    N("jaipur-haveli-homestay", "Haveli Homestay", "Jaipur", "IN", "in", "en", "Asia", "godaddy",
      '<a href="https://www.makemytrip.com/hotels/haveli_homestay-details-jaipur.html" target="_blank">Book on MakeMyTrip</a>\n'
      '<a href="https://www.goibibo.com/hotels/haveli-homestay-hotel-in-jaipur-2834710012/" target="_blank">Goibibo</a>', currency="₹"),
    N("great-ocean-road-cabins", "Cape Otway Cabins", "Apollo Bay", "AU", "com.au", "en", "Oceania", "wordpress-divi",
      '<h2>Otway tours</h2>\n<div class="rezdy-online-booking"><iframe seamless width="100%" height="1000px" frameborder="0" class="rezdy" '
      'src="https://otwayexperiences.rezdy.com/catalog/412233/great-ocean-road-tours?iframe=true"></iframe></div>', currency="A$"),
    N("praxis-massage-meran", "Hotel-Garni Sonnhof", "Meran", "IT", "it", "de", "Europe", "wordpress-astra",
      '<h2>Massagen buchen</h2>\n<iframe src="https://app.acuityscheduling.com/schedule.php?owner=21988342&amp;ref=embedded_csp" title="Termin buchen" width="100%" height="800" frameBorder="0"></iframe>\n'
      '<script src="https://embed.acuityscheduling.com/js/embed.js" type="text/javascript"></script>'),
    N("mitzpe-ramon-desert-lodge", "Desert Lodge Mitzpe", "Mitzpe Ramon", "IL", "co.il", "en", "Middle East", "hostinger",
      '<p>Reservations by phone or e-mail: <a href="mailto:stay@desertlodge.co.il">stay@desertlodge.co.il</a></p>',
      head_extra='<script id="Cookiebot" src="https://consent.cookiebot.com/uc.js" data-cbid="a1b2c3d4-e5f6-4711-8899-aabbccddeeff" type="text/javascript"></script>\n'
                 '<script async src="https://www.googletagmanager.com/gtm.js?id=GTM-K7Q2ZP4"></script>\n'
                 '<script>!function(w,d,t){w.TiktokAnalyticsObject=t;var ttq=w[t]=w[t]||[];ttq.load=function(e){var s=d.createElement("script");s.src="https://analytics.tiktok.com/i18n/pixel/events.js?sdkid="+e;d.head.appendChild(s)};ttq.load("CK1ABC2DEF3GHI");}(window,document,"ttq");</script>',
      domain="desertlodge.co.il"),
    N("osteria-e-camere-bologna", "Osteria con Camere Da Nello", "Bologna", "IT", "it", "it", "Europe", "custom",
      '<h2>Prenota un tavolo</h2>\n<div id="resy-widget"></div>\n'
      '<a href="https://resy.com/cities/bologna/da-nello?date=2026-06-01&amp;seats=2" class="resy-button">Prenota con Resy</a>\n'
      '<script src="https://widgets.resy.com/embed.js"></script><script>resyWidget.addButton(document.getElementById("resy-widget"),{venueId:44121,apiKey:"nR3sY",replace:true});</script>'),
    N("ryokan-yamabuki-inquiry", "山吹荘", "黒川温泉", "JP", "jp", "ja", "Asia", "custom",
      '<h2>空室のお問い合わせ</h2>\n<form action="/contact/send.php" method="post">\n'
      '<label>ご到着日 <input type="date" name="arrival"></label><label>泊数 <select name="nights"><option>1</option><option>2</option></select></label>\n'
      '<label>人数 <input type="number" name="guests" value="2"></label><label>お名前 <input type="text" name="name"></label>\n'
      '<label>メール <input type="email" name="email"></label><button type="submit">送信する</button></form>\n<p>※お電話でのご予約も承ります。</p>',
      domain="yamabukiso.jp", currency="¥"),
    N("naxos-windmill-studios", "Windmill Studios", "Naxos", "GR", "gr", "el", "Europe", "wix",
      '<h2>Φτάστε με πλοίο</h2>\n<div id="ferryhopper-widget" data-origin="PIR" data-destination="JNX" data-lang="el"></div>\n'
      '<script src="https://www.ferryhopper.com/affiliate/widget.js" async></script>\n<p>Κρατήσεις δωματίων: τηλεφωνικά.</p>'),
    N("fancourt-golf-guesthouse", "Links View Guesthouse", "George", "ZA", "co.za", "en", "Africa", "strikingly",
      '<h2>Book a tee time</h2>\n<a href="https://www.golfnow.co.za/tee-times/facility/1234-george-golf-club/search" target="_blank">Tee times at George Golf Club</a>\n'
      '<div class="nightsfree">Stay 3 nights, pay 2 — call us to book.</div>', currency="R"),
    N("marrakech-riad-hammam", "Riad Zitoun", "Marrakech", "MA", "ma", "fr", "Africa", "wordpress",
      '<h2>Hammam &amp; massages</h2>\n<a class="btn" href="https://calendly.com/riadzitoun-hammam/soin-90min">Prendre rendez-vous</a>\n'
      '<p>Pour réserver une chambre : <a href="mailto:contact@riadzitoun.ma">contact@riadzitoun.ma</a></p>', domain="riadzitoun.ma", currency="MAD"),
    N("valle-de-guadalupe-casa", "Casa del Valle", "Valle de Guadalupe", "MX", "com.mx", "es", "Latin America", "wix",
      '<h2>Catas y eventos</h2>\n<form action="https://formspree.io/f/xqkrwzab" method="POST">\n'
      '<label>Fecha del evento <input type="date" name="fecha_evento"></label><label>Llegada <input type="date" name="llegada"></label><label>Salida <input type="date" name="salida"></label>\n'
      '<label>Invitados <input type="number" name="invitados"></label><button type="submit">Enviar solicitud</button></form>', currency="MXN"),
]

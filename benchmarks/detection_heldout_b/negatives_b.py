"""Pages without a booking engine (set B): what small hotels embed instead, and what looks like booking
but books something else (tables, tours, spa, events, rentals, transport) or only pays or enquires."""

from entry_b import E


def N(slug, name, city, country, tld, lang, region, platform, snippet, **extra):
    return E(slug, name, city, country, tld, lang, region, platform, None, None, "none", None, snippet, **extra)


NEGATIVES = [
    N("studios-anemos-naxos", "Anemos Studios", "Agios Prokopios, Naxos", "GR", "gr", "en", "Europe", "wordpress",
      '<a class="elementor-button" href="https://www.booking.com/hotel/gr/anemos-studios-naxos.html?aid=356980&amp;label=gog235jc" target="_blank" rel="nofollow">Book now on Booking.com</a>\n'
      '<a class="elementor-button alt" href="https://www.airbnb.com/rooms/41872213" target="_blank" rel="nofollow">Airbnb</a>\n'
      '<p>Ferries: <a href="https://www.directferries.com/naxos.htm?dfpid=4421&amp;affid=9&amp;rurl=" rel="nofollow">Direct Ferries</a></p>',
      schema="LodgingBusiness"),
    N("baansabai-kohlanta", "Baan Sabai Bungalows", "Koh Lanta, Krabi", "TH", "com", "en", "Asia", "wix",
      '<div class="agoda-search"><form action="https://www.agoda.com/partners/partnersearch.aspx" method="get" target="_blank">'
      '<input type="hidden" name="cid" value="1844104"><input type="hidden" name="hid" value="2281934"><input type="hidden" name="pcs" value="1">'
      '<input type="date" name="checkin"><input type="number" name="los" value="2"><input type="number" name="adults" value="2">'
      '<button type="submit">Check rates on Agoda</button></form></div>\n'
      '<div id="12go-widget" data-affiliate="11452" data-from="Krabi" data-to="Koh Lanta"></div><script src="https://12go.asia/en/widget/embed.js" async></script>',
      currency="฿"),
    N("saigonsocialhostel", "Saigon Social Hostel", "Ho Chi Minh City", "VN", "com", "en", "Asia", "custom",
      '<ul class="book-with"><li><a href="https://www.hostelworld.com/pwa/hosteldetails.php/Saigon-Social-Hostel/Ho-Chi-Minh/301922" target="_blank" rel="nofollow">Hostelworld</a></li>'
      '<li><a href="https://www.trip.com/hotels/ho-chi-minh-city-hotel-detail-93812211/" target="_blank" rel="nofollow">Trip.com</a></li>'
      '<li><a href="https://wa.me/84901234567?text=Hi%2C%20do%20you%20have%20a%20bed%20for%20tonight%3F">WhatsApp us</a></li></ul>',
      schema="Hostel", currency="VND"),
    N("thewheatsheafinn-ludlow", "The Wheatsheaf Inn", "Ludlow, Shropshire", "GB", "co.uk", "en", "Europe", "squarespace",
      '<h3>Book a table</h3>\n<div id="rd-widget-frame" style="max-width:600px;margin:auto"></div>\n'
      '<script src="https://booking.resdiary.com/bundles/WidgetV2Loader.js"></script>\n'
      '<script>ResDiary.WidgetV2.load("rd-widget-frame", "TheWheatsheafInnLudlow", {"includeJquery":true});</script>\n'
      '<p>To book one of our five rooms, call <a href="tel:+441584000000">01584 000000</a> or email us.</p>',
      currency="£", schema="BedAndBreakfast"),
    N("hostal-la-plaza-ronda", "Hostal La Plaza", "Ronda, Málaga", "ES", "es", "es", "Europe", "custom",
      '<a class="btn" href="https://www.covermanager.com/reserve/module_restaurant/restaurante-la-plaza-ronda/spanish" target="_blank">Reservar mesa en el restaurante</a>\n'
      '<form action="/enviar-solicitud.php" method="post" class="solicitud"><input type="text" name="nombre" placeholder="Nombre">'
      '<input type="date" name="llegada"><input type="date" name="salida"><input type="number" name="personas" value="2">'
      '<textarea name="mensaje"></textarea><button type="submit">Solicitar reserva</button></form>'),
    N("ryokan-shimizuya", "旅館 清水屋", "Kinosaki Onsen", "JP", "jp", "ja", "Asia", "custom",
      '<a href="https://www.tablecheck.com/ja/shops/shimizuya-kaiseki/reserve" class="btn-tablecheck" target="_blank">会席料理のご予約 (TableCheck)</a>\n'
      '<p>ご宿泊のご予約はお電話（0796-32-0000）または <a href="https://travel.rakuten.co.jp/HOTEL/12345/12345.html" rel="nofollow">楽天トラベル</a>・'
      '<a href="https://www.jalan.net/yad312345/" rel="nofollow">じゃらん</a> から承ります。</p>', currency="¥"),
    N("hotelaandegracht-haarlem", "Hotel aan de Gracht", "Haarlem", "NL", "nl", "nl", "Europe", "wordpress",
      '<div class="ft-widget-b2" data-restaurant="aan-de-gracht" data-open="1500" data-open-mobile="false" data-color="#1b3a4b" data-language="nl" data-tag="Website"></div>\n'
      '<script>(function(d,s,id,h){var ftjs=d.getElementsByTagName(s)[0];if(d.getElementById(id))return;var js=d.createElement(s);js.id=id;'
      'js.src="https://cdn.formitable.com/sdk/v1.2/formitable.sdk.js";ftjs.parentNode.insertBefore(js,ftjs);}(document,"script","formitable-sdk"));</script>\n'
      '<p>Kamer boeken? Mail naar <a href="mailto:kamers@hotelaandegracht.nl">kamers@hotelaandegracht.nl</a></p>'),
    N("chalet-bergsicht-grindelwald", "Chalet Bergsicht", "Grindelwald", "CH", "ch", "de", "Europe", "custom",
      '<h3>Ausflüge &amp; Touren buchen</h3>\n<div class="trekksoft" data-type="activity" data-id="121" data-width="100%" data-height="auto"></div>\n'
      '<script src="https://bergsicht-tours.trekksoft.com/en/api/public" type="text/javascript"></script>\n'
      '<script>(function(){var w=new TrekkSoft.Embed.Widget({width:"100%",height:"auto",fullHeight:true,type:"activity_booking",referral:"chalet",entryPoint:"activity_booking",activityId:121});w.attach(document.querySelector(".trekksoft"));})();</script>\n'
      '<p>Zimmeranfragen bitte per <a href="/kontakt/">Kontaktformular</a>.</p>', currency="CHF"),
    N("landhaus-am-see-chiemsee", "Landhaus am See", "Prien am Chiemsee", "DE", "de", "de", "Europe", "wordpress-divi",
      '<h3>Schifffahrt &amp; Kochkurse</h3>\n<script src="https://widgets.regiondo.net/product/v1/product-widget.min.js"></script>\n'
      '<product-widget widget-id="6b2f1c0e-8f31-4c2d-b1a9-7e3f4c5d6a21" data-widget-lang="de-DE"></product-widget>\n'
      '<p class="sister">Zimmer buchen Sie in unserem Schwesterhaus: <a href="https://www.gasthof-seeblick-prien.de/zimmer/buchen/" target="_blank">Gasthof Seeblick</a></p>'),
    N("mangroveecolodge-keys", "Mangrove Eco Lodge", "Islamorada, Florida Keys", "US", "com", "en", "North America",
      "webflow",
      '<a href="https://x.xola.com/checkout/seller/5f1e2d3c4b5a69788796a5b4/experiences/63ab12cd34ef56ab78cd90ef" class="xola-checkout xola-custom button w-button" '
      'data-seller="5f1e2d3c4b5a69788796a5b4" data-experience="63ab12cd34ef56ab78cd90ef">Book a kayak tour</a>\n'
      '<script type="text/javascript">(function(){var co=document.createElement("script");co.type="text/javascript";co.async=true;'
      'co.src="https://xola.com/checkout.js";var s=document.getElementsByTagName("script")[0];s.parentNode.insertBefore(co,s);})();</script>\n'
      '<p>Lodge rooms: call us or <a href="https://www.vrbo.com/2981234" rel="nofollow">book on Vrbo</a>.</p>', currency="$"),
    N("villaolea-spa-sitges", "Villa Olea Spa &amp; Suites", "Sitges", "ES", "com", "es", "Europe", "wordpress",
      '<a class="elementor-button" href="https://widget.treatwell.es/establecimiento/villa-olea-spa/" target="_blank">Reservar tratamiento de spa</a>\n'
      '<p>Para reservar una suite escríbenos por <a href="https://wa.me/34600000000?text=Reserva%20suite%20del%20__%20al%20__">WhatsApp</a>.</p>'),
    N("yoga-shala-uluwatu", "Uluwatu Yoga Shala &amp; Rooms", "Uluwatu, Bali", "ID", "com", "en", "Asia", "squarespace",
      '<h3>Class schedule</h3>\n<div id="momoyoga-schedule"></div>\n'
      '<script src="https://www.momoyoga.com/schedule-embed.js" data-studio="uluwatu-yoga-shala" data-target="momoyoga-schedule" defer></script>\n'
      '<p>Retreat places: <a href="https://www.bookretreats.com/r/7-day-uluwatu-yoga-retreat" target="_blank" rel="nofollow">BookRetreats</a></p>',
      currency="IDR"),
    N("lakeroad-lodge-taupo", "Lake Road Lodge", "Taupō", "NZ", "co.nz", "en", "Oceania", "custom",
      '<a href="https://book.gettimely.com/lakeroadmassage/book" class="btn" target="_blank">Book a massage</a>\n'
      '<p>Rooms: email <a href="mailto:stay@lakeroadlodge.co.nz">stay@lakeroadlodge.co.nz</a> with your dates.</p>',
      currency="NZ$"),
    N("thegrangehotel-napa", "The Grange Hotel", "Napa, California", "US", "com", "en", "North America", "wordpress",
      '<h3>Plan an event</h3>\n<div id="tripleseat_embed_form_inline"></div>\n'
      '<script type="text/javascript" src="https://api.tripleseat.com/v1/leads/ts_script.js?lead_form_id=31857&amp;public_key=9c1d4e2f7a3b"></script>\n'
      '<p>Group blocks: <a href="https://www.cvent.com/c/express/rfp/new?venueId=b72e5b3a-11f1" target="_blank">Submit an RFP via Cvent</a></p>\n'
      '<p>Overnight stays are currently booked by phone only: (707) 555-0142.</p>', currency="$"),
    N("agriturismo-poggio-ai-lecci", "Agriturismo Poggio ai Lecci", "Montalcino", "IT", "it", "it", "Europe", "wordpress-divi",
      '<h3>Matrimoni ed eventi</h3>\n<script type="text/javascript" src="https://form.jotform.com/jsform/241582937406060"></script>\n'
      '<form class="wpcf7-form" action="/#wpcf7-f212-o1" method="post"><input type="hidden" name="_wpcf7" value="212">'
      '<input type="text" name="your-name"><input type="date" name="data-arrivo"><input type="date" name="data-partenza">'
      '<select name="ospiti"><option>2</option></select><input type="submit" value="Richiedi disponibilità" class="wpcf7-submit"></form>'),
    N("theharbourview-whitby", "The Harbour View", "Whitby, North Yorkshire", "GB", "co.uk", "en", "Europe", "wix",
      '<a data-testid="linkElement" href="https://harbourview.giftpro.co.uk/" target="_blank" class="wixui-button"><span>Buy a gift voucher</span></a>\n'
      '<p>Rooms are booked by phone: 01947 000000.</p>\n'
      '<a href="https://www.hotels.com/ho123456/the-harbour-view-whitby-united-kingdom/" rel="nofollow">Hotels.com</a>',
      currency="£"),
    N("shantikunj-homestay-jaipur", "Shanti Kunj Homestay", "Jaipur", "IN", "in", "en", "Asia", "wordpress",
      '<p>Pay your advance (30%) securely:</p>\n<form><script src="https://checkout.razorpay.com/v1/payment-button.js" data-payment_button_id="pl_NkX2aB9cD3eF4g" async></script></form>\n'
      '<p>Send your dates to <a href="https://wa.me/919800000000">+91 98000 00000</a> and we will confirm by email.</p>',
      currency="₹", schema="BedAndBreakfast"),
    N("karoo-stone-cottages", "Karoo Stone Cottages", "Prince Albert, Western Cape", "ZA", "co.za", "en", "Africa", "wordpress",
      '<form action="https://www.payfast.co.za/eng/process" method="post"><input type="hidden" name="merchant_id" value="10021844">'
      '<input type="hidden" name="merchant_key" value="q1cd2rdny4a53"><input type="hidden" name="amount" value="1500.00">'
      '<input type="hidden" name="item_name" value="Deposit - Karoo Stone Cottages"><input type="submit" value="Pay deposit with PayFast"></form>\n'
      '<p>Also on <a href="https://www.safarinow.com/go/karoostonecottages/" rel="nofollow">SafariNow</a> and '
      '<a href="https://www.lekkeslaap.co.za/akkommodasie/karoo-stone-cottages" rel="nofollow">LekkeSlaap</a></p>',
      currency="R", schema="LodgingBusiness"),
    N("posada-los-alamos-mendoza", "Posada Los Álamos", "Chacras de Coria, Mendoza", "AR", "com.ar", "es",
      "Latin America", "wix",
      '<a data-testid="linkElement" href="https://mpago.la/2Kx7fQ9" target="_blank" class="wixui-button"><span>Pagar seña con Mercado Pago</span></a>\n'
      '<p>Consultas de disponibilidad por <a href="https://wa.me/5492610000000?text=Hola%2C%20quisiera%20consultar%20disponibilidad">WhatsApp</a> · '
      '<a href="https://www.despegar.com.ar/hoteles/h-512233/posada-los-alamos-mendoza" rel="nofollow">Despegar</a></p>', currency="ARS"),
    N("gasthof-post-lermoos", "Gasthof Post", "Lermoos, Tirol", "AT", "at", "de", "Europe", "custom",
      '<a class="btn" href="https://www.alpenhotel-post-ehrwald.at/buchen/" target="_blank">Buchen Sie unser Schwesterhotel Alpenhotel Post in Ehrwald</a>\n'
      '<form action="/anfrage/" method="post" class="anfrage"><input type="date" name="anreise"><input type="date" name="abreise">'
      '<input type="number" name="personen" value="2"><input type="email" name="email"><button>Unverbindlich anfragen</button></form>'),
    N("westcorkcottages", "West Cork Coastal Cottages", "Schull, Co. Cork", "IE", "ie", "en", "Europe", "godaddy",
      '<h3>Availability</h3>\n<iframe src="https://calendar.google.com/calendar/embed?src=c_9f2e1d4c3b2a%40group.calendar.google.com&amp;ctz=Europe%2FDublin&amp;mode=MONTH&amp;showTitle=0" '
      'style="border:0" width="800" height="500" frameborder="0" scrolling="no"></iframe>\n<p>To book, email <a href="mailto:hello@westcorkcottages.ie">hello@westcorkcottages.ie</a></p>'),
    N("bikehotel-texel", "Fietshotel Texel", "Den Burg, Texel", "NL", "nl", "nl", "Europe", "wordpress",
      '<h3>Fietsen huren</h3>\n<div class="booqable-product-list"></div>\n'
      '<form class="booqable-datepicker"><input type="date" name="starts_at"><input type="date" name="stops_at"><button>Beschikbaarheid fietsen</button></form>\n'
      '<script src="https://fietshoteltexel.booqableshop.com/v2/booqable.js"></script>\n'
      '<p>Kamers via <a href="https://www.booking.com/hotel/nl/fietshotel-texel.nl.html" rel="nofollow">Booking.com</a></p>'),
    N("plitvice-river-house", "River House Plitvice", "Rastovača, Plitvička Jezera", "HR", "com", "en", "Europe", "custom",
      '<h3>Boat &amp; lake tours</h3>\n<script type="text/javascript" src="https://bookeo.com/widget.js?a=3129HN7KE1849A0F31"></script>\n'
      '<a href="https://www.airbnb.com/rooms/19283746" rel="nofollow" class="btn">Book our rooms on Airbnb</a>',
      currency="€"),
    N("hunter-valley-vine-cottages", "Vine Cottages", "Pokolbin, Hunter Valley", "AU", "com.au", "en", "Oceania", "wordpress",
      '<h3>Winery events</h3>\n<div class="tt-widget"><div class="tt-widget-fallback"><p><a href="https://www.tickettailor.com/checkout/new-session/id/5123/chk/2f3a/?ref=website_widget" target="_blank">Click here to buy tickets</a></p></div>'
      '<script src="https://cdn.tickettailor.com/js/widgets/min/widget.js" data-url="https://www.tickettailor.com/checkout/new-session/id/5123/chk/2f3a/?ref=website_widget" data-type="inline" data-inline-minimal="true" data-inline-show-logo="false"></script></div>\n'
      '<p>Stay with us: <a href="https://www.stayz.com.au/holiday-rental/p9123456" rel="nofollow">Stayz</a></p>', currency="A$"),
    N("dar-zitoun-marrakech", "Dar Zitoun", "Marrakech Médina", "MA", "com", "fr", "Africa", "wordpress-divi",
      '<form class="wpcf7-form" action="/#wpcf7-f88-o1" method="post"><input type="hidden" name="_wpcf7" value="88">'
      '<p>Arrivée <input type="date" name="arrivee"> Départ <input type="date" name="depart"> Personnes <input type="number" name="personnes" value="2"></p>'
      '<p><input type="email" name="your-email"></p><input type="submit" value="Demande de réservation" class="wpcf7-submit"></form>\n'
      '<script src="https://widget.getyourguide.com/dist/pa.umd.production.min.js" data-gyg-partner-id="Z8K2PQ1"></script>'
      '<div data-gyg-widget="auto" data-gyg-partner-id="Z8K2PQ1" data-gyg-cmp="riad"></div>', schema="BedAndBreakfast",
      currency="MAD"),
    N("fundo-los-robles-puertovaras", "Fundo Los Robles", "Puerto Varas", "CL", "cl", "es", "Latin America", "squarespace",
      '<a class="sqs-block-button-element" href="https://calendly.com/fundolosrobles/visita" target="_blank">Agenda una visita a la viña</a>\n'
      '<a class="sqs-block-button-element" href="https://www.airbnb.cl/rooms/51234987" rel="nofollow">Cabañas en Airbnb</a>',
      currency="CLP"),
    N("pinecone-cabins-gatlinburg", "Pinecone Cabins", "Gatlinburg, Tennessee", "US", "com", "en", "North America", "godaddy",
      '<a href="https://squareup.com/appointments/book/x1y2z3/LQ8M9N/start" class="btn" target="_blank">Book a couples massage</a>\n'
      '<a href="https://www.vrbo.com/1234567" class="btn" target="_blank" rel="nofollow">Book your cabin on Vrbo</a>', currency="$"),
    N("nyali-beach-cottages", "Nyali Beach Cottages", "Mombasa", "KE", "co.ke", "en", "Africa", "custom",
      '<p>Pay via M-Pesa: <strong>Lipa na M-Pesa Till 512233</strong>, then send your booking dates by '
      '<a href="https://wa.me/254700000000">WhatsApp</a>.</p>\n'
      '<div class="ta-badge"><a href="https://www.tripadvisor.com/Hotel_Review-g294210-d1122334" rel="nofollow">Tripadvisor Travellers\' Choice</a></div>',
      currency="KES"),
    N("quinta-do-vale-douro", "Quinta do Vale", "Pinhão, Douro", "PT", "pt", "pt", "Europe", "custom",
      '<h3>Provas de vinho</h3>\n<iframe src="https://quintadovale.simplybook.it/v2/#book" width="100%" height="700" frameborder="0"></iframe>\n'
      '<p>Alojamento: <a href="mailto:reservas@quintadovale.pt">reservas@quintadovale.pt</a></p>'),
    N("larkspurinn-canmore", "The Larkspur Inn", "Canmore, Alberta", "CA", "ca", "en", "North America", "drupal",
      '<a class="button button--primary" href="/contact/?subject=reservation">Reserve</a>\n'
      '<form name="stay-request" method="POST" data-netlify="true" netlify-honeypot="bot-field" action="/thank-you/">'
      '<input type="hidden" name="form-name" value="stay-request"><p class="hidden"><input name="bot-field"></p>'
      '<label>Check-in <input type="date" name="checkin"></label><label>Check-out <input type="date" name="checkout"></label>'
      '<label>Guests <input type="number" name="guests" value="2"></label><label>Email <input type="email" name="email"></label>'
      '<button type="submit">Request a reservation</button></form>',
      currency="CA$",
      head_extra=('<script type="text/javascript">_linkedin_partner_id="5512873";window._linkedin_data_partner_ids=window._linkedin_data_partner_ids||[];window._linkedin_data_partner_ids.push(_linkedin_partner_id);</script>'
                  '<script type="text/javascript">(function(l){if(!l){window.lintrk=function(a,b){window.lintrk.q.push([a,b])};window.lintrk.q=[]}var s=document.getElementsByTagName("script")[0];var b=document.createElement("script");b.type="text/javascript";b.async=true;b.src="https://snap.licdn.com/li.lms-analytics/insight.min.js";s.parentNode.insertBefore(b,s);})(window.lintrk);</script>\n'
                  '<script>!function(w,d,t){w.TiktokAnalyticsObject=t;var ttq=w[t]=w[t]||[];ttq.methods=["page","track","identify"];ttq.load=function(e){var i="https://analytics.tiktok.com/i18n/pixel/events.js";ttq._i=ttq._i||{};ttq._i[e]=[];var o=d.createElement("script");o.type="text/javascript";o.async=!0;o.src=i+"?sdkid="+e+"&lib="+t;var a=d.getElementsByTagName("script")[0];a.parentNode.insertBefore(o,a)};ttq.load("CK1L2M3N4O5P6Q7R8S9T");ttq.page();}(window,document,"ttq");</script>\n'
                  '<script>(function(w,d,t,r,u){var f,n,i;w[u]=w[u]||[],f=function(){var o={ti:"187654321",enableAutoSpaTracking:true};o.q=w[u],w[u]=new UET(o),w[u].push("pageLoad")},n=d.createElement(t),n.src=r,n.async=1,n.onload=n.onreadystatechange=function(){var s=this.readyState;s&&s!=="loaded"&&s!=="complete"||(f(),n.onload=n.onreadystatechange=null)},i=d.getElementsByTagName(t)[0],i.parentNode.insertBefore(n,i)})(window,document,"script","//bat.bing.com/bat.js","uetq");</script>\n'
                  '<script src="https://cdn.cookielaw.org/consent/7d1e2f3a-4b5c-6d7e-8f90-a1b2c3d4e5f6/OtAutoBlock.js" type="text/javascript"></script>'),
      schema="BedAndBreakfast"),
    N("pousada-vila-do-mar-trancoso", "Pousada Vila do Mar", "Trancoso, BA", "BR", "com.br", "pt", "Latin America", "wordpress",
      '<a class="elementor-button" href="https://api.whatsapp.com/send?phone=5573999990000&amp;text=Ol%C3%A1!%20Gostaria%20de%20reservar%20de%20__%2F__%20a%20__%2F__%20para%20__%20pessoas">Reservas pelo WhatsApp</a>\n'
      '<p>Festa de Réveillon: ingressos na <a href="https://www.sympla.com.br/evento/reveillon-vila-do-mar-2026/2781234" target="_blank">Sympla</a> · '
      'pacotes na <a href="https://www.decolar.com/hoteis/h-881234" rel="nofollow">Decolar</a></p>', currency="R$"),
]

"""Pages with no booking engine: the hotel takes bookings through OTAs, by phone or e-mail, or sells
something else online (tables, tours, spa, golf, vouchers, events). Every one has a 'book' word near
a third-party host, which is what makes it a test."""

from __future__ import annotations

from entry import E


def N(slug: str, name: str, city: str, tld: str, lang: str, region: str, platform: str, snippet: str,
      **extra: str) -> dict:
    return E(slug, name, city, tld, lang, region, platform, None, None, "none", None, snippet, **extra)


CALL = '<p class="book-by-phone">To book, call us or write to <a href="mailto:reservations@{d}">reservations@{d}</a>.</p>'

NEGATIVES = [
    N("hotelsantelmo", "Hostal San Telmo", "Buenos Aires", "com.ar", "es", "Latin America", "wix",
      '<a class="wixui-button" href="https://www.booking.com/hotel/ar/hostal-san-telmo.es.html?aid=356980" target="_blank">Reservar en Booking.com</a>'
      ' <a href="https://www.airbnb.com/rooms/48213377" target="_blank">Airbnb</a>'),
    N("pensionemilia", "Pensione Emilia", "Bologna", "it", "it", "Europe", "wordpress",
      '<ins class="bookingaff" data-aid="2113432" data-target_aff_label="pensione-emilia" data-prod="nsb" data-width="100%" data-height="auto" '
      'data-lang="it" data-dest_id="-111742" data-dest_type="city"><a href="//www.booking.com?aid=2113432">Booking.com</a></ins>'
      '<script type="text/javascript">(function(d, sc, u) { var s = d.createElement(sc), p = d.getElementsByTagName(sc)[0]; s.type = "text/javascript"; '
      's.async = true; s.src = u + "?v=" + (+new Date()); p.parentNode.insertBefore(s,p); })(document, "script", "//cf.bstatic.com/static/affiliate_base/js/flexiproduct.js");</script>'),
    N("beachhousekauai", "The Beach House Kauai", "Kapaa, HI", "com", "en", "North America", "squarespace",
      '<div class="airbnb-embed-frame" data-id="21938475" data-view="home" data-hide-price="true" style="width:450px;height:300px;margin:auto">'
      '<a href="https://www.airbnb.com/rooms/21938475?guests=1&amp;adults=1&amp;s=66&amp;source=embed_widget">View On Airbnb</a></div>'
      '<script async src="https://www.airbnb.com/embeddable/airbnb_jssdk"></script>'
      ' <a href="https://www.vrbo.com/1928374" class="sqs-button-element--secondary">Book on Vrbo</a>'),
    N("thecopperkettleinn", "The Copper Kettle Inn", "Woodstock, VT", "com", "en", "North America", "wordpress",
      '<div id="ot-widget"><script type="text/javascript" src="//www.opentable.com/widget/reservation/loader?rid=128834&amp;type=standard&amp;theme=standard&amp;color=1&amp;dark=false&amp;iframe=true&amp;domain=com&amp;lang=en-US&amp;newtab=false&amp;ot_source=Restaurant%20website"></script></div>'
      + CALL.format(d="thecopperkettleinn.com")),
    N("thelarkhotel", "The Lark", "Hudson, NY", "com", "en", "North America", "custom",
      '<div id="resyButton-lark01">Reserve a table at Lark Kitchen</div>'
      '<script src="https://widgets.resy.com/embed.js"></script><script>resyWidget.addButton(document.getElementById("resyButton-lark01"), '
      '{"venueId": 58213, "apiKey": "Ya1xK4mP9qRtL2bVnW8cZ3dF6gH0jS5e", "replace": true});</script>'
      + CALL.format(d="thelarkhotel.com")),
    N("harbourhousehotelsyd", "Harbour House", "Sydney", "com.au", "en", "Oceania", "custom",
      '<button id="sevenrooms-button">Reserve</button><script src="https://www.sevenrooms.com/widget/embed.js"></script>'
      '<script>SevenroomsWidget.init({ venueId: "harbourhousegrill", triggerId: "sevenrooms-button", type: "reservations", '
      'styleButton: false, clientToken: "" });</script>' + CALL.format(d="harbourhousehotelsyd.com.au"),
      tagline="Dine with us at the Harbour Grill"),
    N("aubergedumoulin", "Auberge du Moulin", "Colmar", "fr", "fr", "Europe", "wordpress",
      '<h3>Réserver une table</h3><iframe src="https://widget.thefork.com/fr/6f1c2d3e-4a5b-46c7-8d9e-0f1a2b3c4d5e?step=date" '
      'style="width:100%;height:500px;border:none" allowfullscreen></iframe>' + CALL.format(d="aubergedumoulin.fr")),
    N("brasseriemaison", "Maison Lafayette", "Lyon", "fr", "fr", "Europe", "custom",
      '<a class="btn" href="https://bookings.zenchef.com/results?rid=354821&amp;pid=1001" target="_blank">Réserver au restaurant</a>'
      + CALL.format(d="brasseriemaison.fr")),
    N("kayakbaylodge", "Kayak Bay Lodge", "Homer, AK", "com", "en", "North America", "wordpress",
      '<script src="https://fareharbor.com/embeds/api/v1/?autolightframe=yes"></script>'
      '<a href="https://fareharbor.com/embeds/book/kayakbayadventures/items/234512/?full-items=yes&amp;flow=no" '
      'style="font-weight: bold;" class="fh-button-true-flat-blue">Book a Kayak Tour</a>' + CALL.format(d="kayakbaylodge.com")),
    N("cairnsreefretreat", "Reef Retreat", "Cairns, QLD", "com.au", "en", "Oceania", "custom",
      '<h3>Reef tours</h3><iframe seamless="" width="100%" height="1000px" frameborder="0" class="rezdy" '
      'src="https://reefretreattours.rezdy.com/catalog/412233/day-tours?iframe=true"></iframe>'
      '<script type="text/javascript" src="https://reefretreattours.rezdy.com/pluginJs/rezdy-modal.js"></script>'
      + CALL.format(d="cairnsreefretreat.com.au")),
    N("moabdesertinn", "Desert Inn Moab", "Moab, UT", "com", "en", "North America", "squarespace",
      '<script type="text/javascript" src="https://js.peek.com/widget_button.js" data-key="8a1b2c3d-4e5f-6071-8293-a4b5c6d7e8f9" '
      'data-button-text="Book a Jeep Tour" data-activity-gid="5f2e1d0c" async></script>' + CALL.format(d="moabdesertinn.com")),
    N("glenfernhotel", "Glenfern Country House", "Pitlochry", "co.uk", "en", "Europe", "wordpress",
      '<a class="button" href="https://www.giftpro.co.uk/vouchers/glenfern-country-house/" target="_blank">Buy a Gift Voucher</a> '
      '<a href="https://glenfern.vouchercart.com/app/" target="_blank">Spa vouchers</a>' + CALL.format(d="glenfernhotel.co.uk")),
    N("hotelzurpost", "Hotel Zur Post", "Bernkastel-Kues", "de", "de", "Europe", "custom",
      '<p>Leider ausgebucht? <a class="btn" href="https://www.hotel-moselblick-kues.de/">Buchen Sie unser Schwesterhotel Moselblick</a></p>'
      + CALL.format(d="hotelzurpost.de")),
    N("thebarnatwillowcreek", "The Barn at Willow Creek", "Fredericksburg, TX", "com", "en", "North America",
      "wordpress",
      '<div class="wpcf7 js" id="wpcf7-f112-o1"><form action="/#wpcf7-f112-o1" method="post" class="wpcf7-form init" novalidate="novalidate">'
      '<input type="hidden" name="_wpcf7" value="112"><p><label>Your name<input type="text" name="your-name"></label></p>'
      '<p><label>Event date<input type="date" name="event-date"></label></p><p><label>Number of guests<input type="number" name="guests"></label></p>'
      '<p><label>Type of event<select name="event-type"><option>Wedding</option><option>Corporate retreat</option></select></label></p>'
      '<p><input type="submit" value="Request a quote" class="wpcf7-submit"></p></form></div>',
      head_extra='<link rel="stylesheet" href="/wp-content/plugins/contact-form-7/includes/css/styles.css?ver=5.8.7">'),
    N("lakehouseweddings", "Lake House Hotel", "Lake Geneva, WI", "com", "en", "North America", "custom",
      '<h3>Plan your wedding with us</h3><script charset="utf-8" type="text/javascript" src="//js.hsforms.net/forms/embed/v2.js"></script>'
      '<script>hbspt.forms.create({ region: "na1", portalId: "2213408", formId: "6c1f9a2e-5b3d-4e71-9a0c-8d2e4f6b1a37" });</script>'
      + CALL.format(d="lakehouseweddings.com")),
    N("oakhollowmanor", "Oak Hollow Manor", "Charlottesville, VA", "com", "en", "North America", "squarespace",
      '<h3>Book a venue tour</h3><div class="calendly-inline-widget" data-url="https://calendly.com/oakhollowmanor/site-visit?hide_gdpr_banner=1" '
      'style="min-width:320px;height:700px;"></div><script type="text/javascript" src="https://assets.calendly.com/assets/external/widget.js" async></script>'
      + CALL.format(d="oakhollowmanor.com")),
    N("cottagesandiego", "Point Loma Cottage", "San Diego, CA", "com", "en", "North America", "webflow",
      '<div data-tf-widget="Kq7ZrT2p" data-tf-opacity="100" data-tf-iframe-props="title=Stay enquiry" style="width:100%;height:500px;"></div>'
      '<script src="//embed.typeform.com/next/embed.js"></script>'),
    N("thermalspahotel", "Thermal Spa Hotel", "Banff, AB", "ca", "en", "North America", "custom",
      '<h3>Book a spa treatment</h3><script src="https://widgets.mindbodyonline.com/javascripts/healcode.js" type="text/javascript"></script>'
      '<healcode-widget data-type="appointments" data-widget-partner="object" data-widget-id="4a12b3c4d5e6" data-widget-version="0"></healcode-widget>'
      + CALL.format(d="thermalspahotel.ca")),
    N("golfhotelalgarve", "Golf Hotel Vale Verde", "Vilamoura", "pt", "pt", "Europe", "wordpress",
      '<h3>Reserve o seu tee time</h3><iframe src="https://www.chronogolf.com/club/vale-verde-golf/widget?medium=widget&amp;source=club" '
      'width="100%" height="700" frameborder="0"></iframe>' + CALL.format(d="golfhotelalgarve.pt")),
    N("thegranarylondon", "The Granary Rooms", "London", "co.uk", "en", "Europe", "custom",
      '<h3>Supper club tickets</h3><div id="eventbrite-widget-container-712334455667"></div>'
      '<script src="https://www.eventbrite.co.uk/static/widgets/eb_widgets.js"></script><script type="text/javascript">'
      "window.EBWidgets.createWidget({ widgetType: 'checkout', eventId: '712334455667', iframeContainerId: 'eventbrite-widget-container-712334455667', "
      "iframeContainerHeight: 425 });</script>" + CALL.format(d="thegranarylondon.co.uk")),
    N("sunsetcabanas", "Sunset Cabanas", "Tamarindo", "com", "en", "Latin America", "custom",
      '<form action="https://formspree.io/f/xqkrbwne" method="POST" class="enquiry"><h3>Request to book</h3>'
      '<input type="text" name="name" placeholder="Name"><input type="email" name="email" placeholder="Email">'
      '<label>Arrival <input type="date" name="arrival"></label><label>Departure <input type="date" name="departure"></label>'
      '<input type="number" name="guests" value="2"><button type="submit">Send request</button></form>'),
    N("hotelplazamayor", "Hotel Plaza Mayor", "Salamanca", "es", "es", "Europe", "wordpress",
      '<a class="btn" href="https://www.google.com/travel/hotels/entity/CgoIhfD1x5TY0M4uEAE?hl=es" target="_blank">Ver precios en Google</a> '
      '<a href="https://www.trivago.es/es/oar/hotel-plaza-mayor-salamanca?search=100-4812233" target="_blank">trivago</a>'
      + CALL.format(d="hotelplazamayor.es")),
    N("lisbonlofthostel", "Lisbon Loft Hostel", "Lisboa", "pt", "pt", "Europe", "wix",
      '<a href="https://www.hostelworld.com/pwa/hosteldetails.php/Lisbon-Loft-Hostel/Lisbon/298231" class="wixui-button">Book on Hostelworld</a> '
      '<a href="https://www.booking.com/hotel/pt/lisbon-loft-hostel.html">Booking.com</a>'),
    N("hotelandinoquito", "Hotel Andino", "Quito", "ec", "es", "Latin America", "wordpress",
      '<div data-gyg-href="https://widget.getyourguide.com/default/activities.frame" data-gyg-locale-code="es-ES" data-gyg-widget="activities" '
      'data-gyg-number-of-items="3" data-gyg-partner-id="H7KQ2XM" data-gyg-q="Quito"></div>'
      '<script async defer src="https://widget.getyourguide.com/dist/pa.umd.production.min.js" data-gyg-partner-id="H7KQ2XM"></script>'
      + CALL.format(d="hotelandinoquito.ec")),
    N("maplecottagebb", "Maple Cottage B&amp;B", "Niagara-on-the-Lake, ON", "ca", "en", "North America", "squarespace",
      '<p>Secure your dates with a deposit: <a class="sqs-button-element--primary" href="https://buy.stripe.com/28o5kF3aB1cD9Qw000" target="_blank">Pay deposit</a> · '
      '<a href="https://squareup.com/gift/MLK1R2S3T4/order" target="_blank">Gift cards</a></p>' + CALL.format(d="maplecottagebb.ca")),
    N("santoriniviewstudios", "View Studios Oia", "Oia, Santorini", "gr", "en", "Europe", "custom",
      '<a class="btn" href="https://www.welcomepickups.com/santorini/?ref=viewstudios" target="_blank">Book your airport transfer</a> '
      '<a href="https://www.viator.com/tours/Santorini/Sunset-Catamaran-Cruise/d959-5128SUNSET" target="_blank">Sunset cruise</a>'
      + CALL.format(d="santoriniviewstudios.gr")),
    N("ryokanmountain", "Mountain Ryokan Takayama", "Takayama", "jp", "en", "Asia", "custom",
      '<a class="btn" href="https://www.jalan.net/yad312345/" target="_blank">じゃらんで予約</a> '
      '<a href="https://travel.rakuten.co.jp/HOTEL/123456/123456.html" target="_blank">楽天トラベル</a> '
      '<a href="https://www.agoda.com/mountain-ryokan-takayama/hotel/takayama-jp.html" target="_blank">Agoda</a>'),
    N("balihomestaycanggu", "Canggu Homestay", "Canggu, Bali", "co.id", "en", "Asia", "wix",
      '<a class="wixui-button" href="https://wa.me/6281234567890?text=Booking%20enquiry" target="_blank">Book via WhatsApp</a> '
      '<a href="https://www.traveloka.com/en-id/hotel/indonesia/canggu-homestay-3000010012345">Traveloka</a>', no_chat="1"),
    N("hotelreykjavikcentrum", "Guesthouse Skuggi", "Reykjavík", "is", "en", "Europe", "custom",
      '<h3>Northern lights tours</h3><script type="text/javascript" src="https://widgets.bokun.io/assets/javascripts/apps/build/BokunWidgetsLoader.js?bookingChannelUUID=7c1e5d2a-3b4f-4e6a-9c8d-0f1e2d3c4b5a" async></script>'
      '<div class="bokunWidget" data-src="https://widgets.bokun.io/online-sales/7c1e5d2a-3b4f-4e6a-9c8d-0f1e2d3c4b5a/experience/412233"></div>'
      + CALL.format(d="hotelreykjavikcentrum.is")),
    N("thepeninsulaspahotel", "Peninsula Spa Hotel", "Mornington, VIC", "com.au", "en", "Oceania", "wordpress",
      '<a class="elementor-button" href="https://www.fresha.com/book-now/peninsula-spa-x8k2p1qz/all-offer?pId=1203344" target="_blank">Book a Spa Treatment</a>'
      + CALL.format(d="thepeninsulaspahotel.com.au")),
    N("wellnesshotelsonnhof", "Wellnesshotel Sonnhof", "Bad Ischl", "at", "de", "Europe", "custom",
      '<script src="//widget.simplybook.me/v2/widget/widget.js" type="text/javascript"></script><script type="text/javascript">'
      'var widget = new SimplybookWidget({"widget_type":"button","url":"https:\/\/sonnhofspa.simplybook.it","theme":"default",'
      '"theme_settings":{"sb_base_color":"#5b7f5c"},"timeline":"modern","datepicker":"top_calendar","is_rtl":false,'
      '"app_config":{"predefined":[]},"button_title":"Massage buchen","button_background_color":"#5b7f5c","button_position":"right"});</script>'
      + CALL.format(d="wellnesshotelsonnhof.at")),
    N("saltmarshinn", "Salt Marsh Inn", "Chatham, MA", "com", "en", "North America", "squarespace",
      '<h3>Schedule a yoga class</h3><iframe src="https://app.acuityscheduling.com/schedule.php?owner=23118844&amp;appointmentType=category:Yoga" '
      'title="Schedule Appointment" width="100%" height="800" frameBorder="0"></iframe><script src="https://embed.acuityscheduling.com/js/embed.js" type="text/javascript"></script>'
      + CALL.format(d="saltmarshinn.com")),
    N("vineyardinnnapa", "Vineyard Inn", "Napa, CA", "com", "en", "North America", "custom",
      '<a class="btn" href="https://www.exploretock.com/vineyardinnwinery/experience/254331/estate-tasting" target="_blank">Book a Wine Tasting</a>'
      '<script src="https://www.exploretock.com/tock.js" async></script>' + CALL.format(d="vineyardinnnapa.com")),
    N("pinegrovecampground", "Pine Grove Campground &amp; Cabins", "Bend, OR", "com", "en", "North America",
      "wordpress",
      '<a class="wp-block-button__link" href="https://www.hipcamp.com/en-US/land/oregon-pine-grove-campground-4kx9s2" target="_blank">Book a campsite on Hipcamp</a>'
      + CALL.format(d="pinegrovecampground.com")),
]

"""The world the hotel generator (``hotel_sources_data.py``) draws from: states, town and hotel
name parts, streets, chain brands on their domains with their central phones.

Standard library only; constants, no randomness.
"""

# abbr, name, lat_min, lat_max, lng_min, lng_max, area codes, zip3 start
STATES = [
    ("AL", "Alabama", 30.4, 34.9, -88.3, -85.1, (205, 251, 256, 334), 350),
    ("AK", "Alaska", 58.3, 64.8, -151.5, -134.5, (907,), 995),
    ("AZ", "Arizona", 31.5, 36.9, -114.5, -109.2, (480, 520, 602, 623, 928), 850),
    ("AR", "Arkansas", 33.1, 36.4, -94.4, -89.8, (479, 501, 870), 716),
    ("CA", "California", 32.6, 41.9, -124.2, -114.4, (209, 213, 310, 408, 415, 510, 619, 714, 805), 900),
    ("CO", "Colorado", 37.1, 40.9, -108.9, -102.2, (303, 719, 720, 970), 800),
    ("CT", "Connecticut", 41.1, 41.9, -73.6, -71.9, (203, 860), 60),
    ("DE", "Delaware", 38.5, 39.7, -75.7, -75.1, (302,), 197),
    ("FL", "Florida", 25.2, 30.9, -87.4, -80.1, (239, 305, 321, 352, 386, 407, 561, 727, 813, 904), 320),
    ("GA", "Georgia", 30.5, 34.9, -85.5, -81.0, (229, 404, 470, 478, 678, 706, 770, 912), 300),
    ("HI", "Hawaii", 19.1, 22.1, -159.7, -155.0, (808,), 967),
    ("ID", "Idaho", 42.1, 48.9, -117.1, -111.1, (208,), 832),
    ("IL", "Illinois", 37.1, 42.4, -91.3, -87.6, (217, 309, 312, 618, 630, 708, 773, 815, 847), 600),
    ("IN", "Indiana", 37.9, 41.7, -88.0, -84.9, (219, 260, 317, 574, 765, 812), 460),
    ("IA", "Iowa", 40.5, 43.4, -96.4, -90.2, (319, 515, 563, 641, 712), 500),
    ("KS", "Kansas", 37.1, 39.9, -101.9, -94.7, (316, 620, 785, 913), 660),
    ("KY", "Kentucky", 36.6, 39.0, -89.3, -82.0, (270, 502, 606, 859), 400),
    ("LA", "Louisiana", 29.2, 32.9, -93.8, -89.2, (225, 318, 337, 504, 985), 700),
    ("ME", "Maine", 43.2, 47.3, -70.9, -67.1, (207,), 39),
    ("MD", "Maryland", 38.1, 39.7, -79.4, -75.1, (240, 301, 410, 443), 206),
    ("MA", "Massachusetts", 41.3, 42.8, -73.4, -70.0, (339, 413, 508, 617, 774, 781, 978), 10),
    ("MI", "Michigan", 41.8, 47.4, -90.3, -82.5, (231, 248, 269, 313, 517, 586, 616, 734, 810), 480),
    ("MN", "Minnesota", 43.6, 49.2, -97.1, -89.6, (218, 320, 507, 612, 651, 763, 952), 550),
    ("MS", "Mississippi", 30.3, 34.9, -91.5, -88.2, (228, 601, 662, 769), 386),
    ("MO", "Missouri", 36.1, 40.5, -95.7, -89.2, (314, 417, 573, 636, 660, 816), 630),
    ("MT", "Montana", 44.5, 48.9, -115.9, -104.1, (406,), 590),
    ("NE", "Nebraska", 40.1, 42.9, -103.9, -95.4, (308, 402, 531), 680),
    ("NV", "Nevada", 35.1, 41.9, -119.9, -114.1, (702, 725, 775), 889),
    ("NH", "New Hampshire", 42.8, 45.2, -72.5, -70.7, (603,), 30),
    ("NJ", "New Jersey", 39.0, 41.3, -75.5, -74.0, (201, 609, 732, 856, 908, 973), 70),
    ("NM", "New Mexico", 31.4, 36.9, -108.9, -103.1, (505, 575), 870),
    ("NY", "New York", 40.6, 44.9, -79.7, -72.0, (212, 315, 347, 516, 518, 585, 607, 631, 716, 718), 100),
    ("NC", "North Carolina", 33.9, 36.5, -84.2, -75.6, (252, 336, 704, 828, 910, 919, 980), 270),
    ("ND", "North Dakota", 46.0, 48.9, -103.9, -96.7, (701,), 580),
    ("OH", "Ohio", 38.5, 41.9, -84.7, -80.6, (216, 330, 419, 440, 513, 614, 740, 937), 430),
    ("OK", "Oklahoma", 33.7, 36.9, -102.9, -94.5, (405, 580, 918), 730),
    ("OR", "Oregon", 42.1, 46.2, -124.3, -116.6, (503, 541, 971), 970),
    ("PA", "Pennsylvania", 39.8, 41.9, -80.4, -74.8, (215, 267, 412, 484, 570, 610, 717, 724, 814), 150),
    ("RI", "Rhode Island", 41.2, 41.9, -71.8, -71.2, (401,), 28),
    ("SC", "South Carolina", 32.1, 35.1, -83.2, -78.6, (803, 843, 864), 290),
    ("SD", "South Dakota", 42.6, 45.8, -103.9, -96.5, (605,), 570),
    ("TN", "Tennessee", 35.1, 36.6, -90.2, -81.7, (423, 615, 731, 865, 901, 931), 370),
    ("TX", "Texas", 26.1, 36.4, -106.4, -93.6, (210, 214, 254, 281, 361, 409, 512, 713, 806, 817), 750),
    ("UT", "Utah", 37.1, 41.9, -113.9, -109.1, (385, 435, 801), 840),
    ("VT", "Vermont", 42.8, 44.9, -73.3, -71.6, (802,), 50),
    ("VA", "Virginia", 36.6, 39.4, -83.5, -75.3, (276, 434, 540, 571, 703, 757, 804), 220),
    ("WA", "Washington", 45.6, 48.9, -124.5, -117.0, (206, 253, 360, 425, 509), 980),
    ("WV", "West Virginia", 37.3, 40.5, -82.5, -77.8, (304, 681), 247),
    ("WI", "Wisconsin", 42.6, 46.9, -92.8, -86.9, (262, 414, 608, 715, 920), 530),
    ("WY", "Wyoming", 41.1, 44.9, -110.9, -104.1, (307,), 820),
]

CITY_PREFIX = (
    "Spring Oak Cedar Maple Fair Green Clear Pine Elm Ash Birch Willow Bright Glen Rock Stone Sand "
    "Salt Silver Gold Red White Black Blue Brook Lake River Harbor Bay Mill Bridge Port New North "
    "South East West Frank Lincoln Madison Clinton Marion Jackson Monroe Warren Summer Winter Wood "
    "Fox Deer Eagle Hawk Crow Mid Kings Queens Bell"
).split()
CITY_SUFFIX = (
    "field|ville|ton|wood|port|dale|burg|ford|view|land|mont|haven|boro|bury|crest|ridge| Springs"
    "| Falls| Harbor| Beach| Heights| Point| Valley| City| Hills| Grove| Junction| Landing| Creek| Lake"
).split("|")
SAINTS = "Augustine Petersburg Charles Joseph Cloud Paul George Clair Louis Helens".split()

ADJ = (
    "Blue Red Golden Silver Old Harbor Bay Lake River Maple Oak Cedar Pine Willow Stone Iron Copper "
    "Sunset Sunrise Morning Lighthouse Sea Wild Green White Grand Little Twin Lazy Happy Hidden "
    "Crystal Misty Eagle Tidewater Driftwood Sandy Rusty Painted Whispering Rolling Lucky Cozy Rustic "
    "Coastal Prairie Mountain Valley Canyon Desert Summit Amber Royal Regal Coral Emerald Sapphire "
    "Ivory Scarlet Heritage Liberty Colonial Victorian Majestic Serene Tranquil Breezy Sunny Shady "
    "Quiet Peaceful Windy Starlight Moonlight Evergreen Aspen Magnolia Palmetto Cypress Juniper Sage"
).split()
NOUN = (
    "Heron Mill Fox Bear Gull Pelican Anchor Ridge Creek Hollow Meadow Bluff Cove Point Landing "
    "Bridge Barn Orchard Garden Dock Wharf Pier Rock Trail Hill Spring Pines Oaks Moose Otter Lantern "
    "Compass Kettle Acorn Elk Falcon Wren Sparrow Harvest Tide Shore Dune Reef Marsh Hearth "
    "Lodgepole Prairie Crossing Station Junction Depot Saddle Spur Mesa Palms Sands Waves Breeze "
    "Horizon Vista Haven Retreat Manor Court Gate Terrace Harbor Bay Key Island Lagoon Canyon Peak "
    "Cabin Chalet Cottage Villa Castle Tower Crown Star Sun Moon"
).split()
TYPES = ["Inn", "Inn", "Hotel", "Hotel", "Motel", "Motel", "Lodge", "Suites", "Inn & Suites",
          "Resort", "Resort & Spa", "Motor Inn", "Guest House", "Boutique Hotel", "Beach Resort"]
LAST = (
    "Smith Johnson Williams Brown Jones Garcia Miller Davis Wilson Anderson Thomas Taylor Moore "
    "Martin Lee Thompson White Harris Clark Lewis Robinson Walker Young Allen King Wright Scott Hill "
    "Adams Baker Nelson Carter Mitchell Roberts Turner Phillips Campbell Parker Evans Edwards Collins"
).split()

STREETS = (
    "Main Oak Maple Cedar Pine Elm Washington Lake Hill Park Church Water Harbor Bay River Mill Spring "
    "Market Front Center Bridge Union Highland Sunset Ocean Beach Forest Meadow Orchard Franklin "
    "Jefferson Lincoln Madison Jackson Walnut Chestnut Willow Cherry Railroad Depot Shore Bluff Canyon "
    "Prospect Pleasant Liberty Commerce Broad High School College Lighthouse Dune Ridge Airport "
    "International Gulf Atlantic Pacific Magnolia Palm Colonial Kings Queens Riverside Lakeshore"
).split()
SUFFIX_LONG = {
    "St": "Street", "Ave": "Avenue", "Rd": "Road", "Blvd": "Boulevard", "Dr": "Drive",
    "Ln": "Lane", "Pkwy": "Parkway", "Ct": "Court", "Pl": "Place", "Hwy": "Highway",
}
SUFFIXES = ["St"] * 8 + ["Ave"] * 5 + ["Rd"] * 4 + ["Dr"] * 3 + ["Blvd", "Ln", "Pkwy", "Ct", "Pl", "Hwy"]
DIRS = {"N": "North", "S": "South", "E": "East", "W": "West"}

# brand, domain, central phone, URL style, weight
BRANDS = [
    ("Hampton Inn", "hilton.com", "800-426-7866", "hilton", 6),
    ("Hampton Inn & Suites", "hilton.com", "800-426-7866", "hilton", 5),
    ("Hilton Garden Inn", "hilton.com", "877-782-9444", "hilton", 4),
    ("Homewood Suites by Hilton", "hilton.com", "800-225-5466", "hilton", 2),
    ("DoubleTree by Hilton", "hilton.com", "800-222-8733", "hilton", 3),
    ("Embassy Suites by Hilton", "hilton.com", "800-362-2779", "hilton", 2),
    ("Home2 Suites by Hilton", "hilton.com", "800-445-8667", "hilton", 2),
    ("Courtyard by Marriott", "marriott.com", "888-236-2427", "marriott", 5),
    ("Fairfield Inn & Suites", "marriott.com", "888-236-2427", "marriott", 5),
    ("Residence Inn", "marriott.com", "888-236-2427", "marriott", 3),
    ("SpringHill Suites", "marriott.com", "888-236-2427", "marriott", 2),
    ("TownePlace Suites", "marriott.com", "888-236-2427", "marriott", 2),
    ("Holiday Inn Express & Suites", "ihg.com", "877-859-5095", "ihg", 6),
    ("Holiday Inn", "ihg.com", "877-859-5095", "ihg", 3),
    ("Candlewood Suites", "ihg.com", "877-834-3613", "ihg", 2),
    ("Staybridge Suites", "ihg.com", "877-238-8889", "ihg", 1),
    ("Comfort Inn", "choicehotels.com", "877-424-6423", "choice", 4),
    ("Comfort Suites", "choicehotels.com", "877-424-6423", "choice", 2),
    ("Quality Inn", "choicehotels.com", "877-424-6423", "choice", 4),
    ("Sleep Inn", "choicehotels.com", "877-424-6423", "choice", 2),
    ("Econo Lodge", "choicehotels.com", "877-424-6423", "choice", 3),
    ("Days Inn", "wyndhamhotels.com", "800-225-3297", "wyndham", 4),
    ("Super 8", "wyndhamhotels.com", "800-454-3213", "wyndham", 4),
    ("La Quinta Inn & Suites", "wyndhamhotels.com", "800-753-3757", "wyndham", 4),
    ("Microtel Inn & Suites", "wyndhamhotels.com", "800-337-0050", "wyndham", 1),
    ("Baymont Inn & Suites", "wyndhamhotels.com", "877-229-6668", "wyndham", 1),
    ("Best Western", "bestwestern.com", "800-780-7234", "bestwestern", 4),
    ("Best Western Plus", "bestwestern.com", "800-780-7234", "bestwestern", 3),
    ("Hyatt Place", "hyatt.com", "800-233-1234", "hyatt", 2),
    ("Hyatt House", "hyatt.com", "800-233-1234", "hyatt", 1),
    ("Motel 6", "motel6.com", "800-899-9841", "motel6", 3),
    # brands on domains that no built-in list knows
    ("Studio 6", "staystudio6.com", "888-897-0202", "plain", 1),
    ("Drury Inn & Suites", "druryhotels.com", "800-378-7946", "plain", 1),
    ("Cobblestone Inn & Suites", "staycobblestone.com", "855-376-2020", "plain", 1),
    ("Red Lion Inn & Suites", "redlion.com", "800-733-5466", "plain", 1),
    ("Country Inn & Suites", "radissonhotels.com", "800-830-5222", "plain", 1),
    ("AmeriVu Inn & Suites", "amerivuhotels.com", "866-555-0199", "plain", 1),
]
BRAND_CUM = [sum(b[4] for b in BRANDS[:k + 1]) for k in range(len(BRANDS))]
QUALIFIERS = [
    "Airport", "Downtown", "North", "South", "East", "West", "Convention Center", "University Area",
    "Medical Center", "Midtown", "Uptown", "Beachfront", "Waterfront", "Historic District",
    "Near the Mall", "Stadium", "Riverfront", "Lakeside", "Central", "Old Town",
]
GROUP_WORDS = "Coastal Heritage Summit Harbor Lantern Keystone Pioneer Meridian Beacon Landmark".split()

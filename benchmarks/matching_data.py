"""Two synthetic DMO guides of the same cities (restaurants, cafés, bars, shops, hotels, sights),
with the truth, for the place-matching quality benchmark (``benchmarks/matching_quality.py``).

Standard library only. The same ``(n, seed)`` gives the same guides on any platform (only
``random.Random`` with an explicit seed; no iteration over sets or hashes).

    python benchmarks/matching_data.py --n 100000 --seed 7 --out DIR   # guide_a.csv, guide_b.csv, truth.csv

Layout of ``generate(n, seed)``:

* Places in 32 metro areas (24 US, 4 Canadian, 4 European), Zipf-like sizes (New York and Los
  Angeles hold a quarter). A metro has districts: a neighbourhood ("SoHo", "Silver Lake"), a
  borough or a separate municipality ("Brooklyn", "West Hollywood", "Santa Monica"), each with its
  postal city, postal codes and streets. Streets have a position and a bearing, so neighbouring
  house numbers are neighbours on the map and coordinates of one street line up.
* About 3n/4 places; a third are in both guides, a third only in guide A, a third only in guide B
  (the share varies by metro), so 40-60 % of guide B has a true match in guide A. Each guide lists
  a place once. Ids are assigned after shuffling: A from 1, B from ``B_ID_BASE + 1``.
* Each guide renders a place in its own house style (A: full street words, "(213) 555-0101",
  the postal city; B: "St.", "213/555-0101", often the neighbourhood, "Palm, The" index order,
  often without accents), plus independent per-record noise. Divergences of a true pair
  (``DIVERGENCES``): the city label (neighbourhood, metro, alias such as "New York City", "W.
  Hollywood", "St." / "Saint", accents), a city suffix in the name ("Spago (Los Angeles)"), short
  forms ("Arts Deli" / "Art's Delicatessen"), "The" moved or dropped, accents ("Café" / "Cafe",
  "Québec" / "Quebec"), "&" / "and", apostrophes, upper case, a one-letter typo in the name, state
  name against code, phone formats and a phone missing on one side, street abbreviations ("St" /
  "Street", "N." / "North", "1st" / "First"), suite numbers written differently or only on one
  side, a building name before the address, a house-number typo on one side ("924" / "9b4", one
  digit off, two digits swapped), missing address / postal code / website, websites with and
  without www, scheme and path, postal code formats ("H2X 1Y4" / "H2X1Y4", ZIP+4), coordinates on
  some records with geocoder jitter (a few at the postal-code centroid).
* Hard negatives (``HARD_NEGATIVE_KINDS``), different places that a matcher may take for one:
  chain outlets of one brand in a metro (same name, other address and phone, sometimes the same
  street), two places at one address (food-hall vendors and their hall, a hotel and its
  restaurant or bar, which often lists the hotel's phone, shops of one building with other
  suites), sister places with similar names on the same street ("Lupa" / "Lupa Bar", "Mario's
  Pizza" / "Maria's Pizzeria"), neighbours at the next house number, and unrelated places of one
  name in one metro.

``generate`` returns a ``Guides``: rows of guide A and B (dicts with ``COLUMNS``), ``truth`` (pairs
(id_a, id_b)), ``divergences`` (id_b -> the divergence kinds of its true pair) and
``hard_negatives`` ((id_a, id_b, kind) for each pair of different places of one hard-negative
group, one in each guide).
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import os
import random
import sys
import time
import unicodedata
from typing import NamedTuple

COLUMNS = ["id", "name", "address1", "city", "state", "zip", "country", "phone", "website", "lat", "lng"]
B_ID_BASE = 10_000_000

DIVERGENCES = [
    "city_label", "name_city_suffix", "name_short_form", "name_the_moved", "name_the_dropped", "name_accents",
    "name_ampersand", "name_apostrophe", "name_case", "name_typo", "city_accents", "state_name_vs_code",
    "phone_format", "phone_missing", "address_abbreviation", "address_ordinal", "suite", "address_building",
    "house_number_typo", "address_missing", "zip_missing", "zip_format", "website_missing", "website_variant",
    "coordinates_jitter", "coordinates_one_side",
]
HARD_NEGATIVE_KINDS = ["chain", "same_address", "similar_name_same_street", "neighbouring_number", "same_name"]

# --- metros ----------------------------------------------------------------------------------------------
# A district: (neighbourhood, postal city, municipality, postal codes, share). The postal codes are a
# template: "100{17-36}" is 10017 ... 10036; Canadian and British ones are outward codes. A metro:
# (name, state code, state name, country, centre lat, lng, weight, area codes, aliases of the metro
# name, signature streets, districts).

_METROS = [
    ("New York", "NY", "New York", "US", 40.735, -73.99, 160, ("212", "646", "917", "718", "347", "929"),
     ["New York City", "NYC", "New York, NY"],
     ["Broadway", "Bleecker St", "Mott St", "Mulberry St", "Spring St", "Prince St", "Ludlow St", "Orchard St",
      "Bedford Ave", "Smith St", "Court St", "Atlantic Ave", "Lexington Ave", "Madison Ave", "Amsterdam Ave",
      "Columbus Ave", "Hudson St", "Greenwich Ave", "W 4th St", "E 7th St", "W 14th St", "E 14th St",
      "W 46th St", "E 53rd St", "W 72nd St", "Avenue A", "Avenue B", "1st Ave", "2nd Ave", "3rd Ave",
      "5th Ave", "6th Ave", "8th Ave", "9th Ave", "10th Ave", "Steinway St", "Ditmars Blvd", "Vernon Blvd",
      "Grand St", "Canal St", "Houston St", "St Marks Pl", "Christopher St", "Carmine St", "Elizabeth St"],
     [("Midtown", "New York", "New York", "100{17-22,36}", 18), ("SoHo", "New York", "New York", "100{12-13}", 8),
      ("Greenwich Village", "New York", "New York", "100{11-14}", 10), ("East Village", "New York", "New York",
      "100{03,09}", 10), ("Lower East Side", "New York", "New York", "10002", 7),
      ("Upper West Side", "New York", "New York", "100{23-25}", 8), ("Chelsea", "New York", "New York",
      "100{01,11}", 7), ("Tribeca", "New York", "New York", "100{07,13}", 5), ("Williamsburg", "Brooklyn",
      "New York", "112{11,49}", 9), ("Park Slope", "Brooklyn", "New York", "112{15,17}", 5),
      ("Carroll Gardens", "Brooklyn", "New York", "11231", 4), ("Astoria", "Astoria", "New York",
      "111{02-06}", 5), ("Long Island City", "Long Island City", "New York", "111{01,09}", 4)]),
    ("Los Angeles", "CA", "California", "US", 34.06, -118.33, 110, ("213", "323", "310", "424", "818", "626"),
     ["LA", "Los Angeles, CA"],
     ["Sunset Blvd", "Melrose Ave", "Wilshire Blvd", "Santa Monica Blvd", "La Brea Ave", "Fairfax Ave",
      "Beverly Blvd", "3rd St", "S Broadway", "S Spring St", "W 7th St", "Hollywood Blvd", "Vermont Ave",
      "Hillhurst Ave", "Abbot Kinney Blvd", "Main St", "Ocean Ave", "Colorado Blvd", "N Robertson Blvd",
      "Rodeo Dr", "Canon Dr", "Lake Ave", "Olympic Blvd", "Sawtelle Blvd", "W Pico Blvd", "N Highland Ave",
      "Silver Lake Blvd", "Glendale Blvd", "Venice Blvd", "Washington Blvd"],
     [("Downtown", "Los Angeles", "Los Angeles", "900{12-17,71}", 14), ("Hollywood", "Los Angeles", "Los Angeles",
      "900{28,38,46}", 12), ("Silver Lake", "Los Angeles", "Los Angeles", "900{26,39}", 7),
      ("Mid-Wilshire", "Los Angeles", "Los Angeles", "900{04,05,10,36}", 9), ("Venice", "Venice", "Los Angeles",
      "90291", 6), ("West Hollywood", "West Hollywood", "West Hollywood", "900{46,48,69}", 9),
      ("Santa Monica", "Santa Monica", "Santa Monica", "904{01-05}", 10), ("Beverly Hills", "Beverly Hills",
      "Beverly Hills", "902{10-12}", 7), ("Pasadena", "Pasadena", "Pasadena", "911{01-07}", 7),
      ("Koreatown", "Los Angeles", "Los Angeles", "900{05,06,20}", 6), ("Culver City", "Culver City",
      "Culver City", "902{30,32}", 4)]),
    ("Chicago", "IL", "Illinois", "US", 41.88, -87.65, 60, ("312", "773", "872"), ["Chicago, IL"],
     ["N Michigan Ave", "W Randolph St", "N Clark St", "N Milwaukee Ave", "W Division St", "N Damen Ave",
      "W Fulton Market", "N Halsted St", "N Lincoln Ave", "W Armitage Ave", "S Wabash Ave", "W Chicago Ave"],
     [("The Loop", "Chicago", "Chicago", "606{01-06}", 10), ("River North", "Chicago", "Chicago", "606{10,54}", 9),
      ("West Loop", "Chicago", "Chicago", "606{07,61}", 8), ("Wicker Park", "Chicago", "Chicago", "606{22,47}", 7),
      ("Lincoln Park", "Chicago", "Chicago", "606{14}", 6), ("Logan Square", "Chicago", "Chicago", "606{47}", 5),
      ("Evanston", "Evanston", "Evanston", "602{01,02}", 3)]),
    ("San Francisco", "CA", "California", "US", 37.77, -122.42, 60, ("415", "628"),
     ["SF", "San Francisco, CA"],
     ["Valencia St", "Mission St", "Polk St", "Columbus Ave", "Grant Ave", "Fillmore St", "Divisadero St",
      "Haight St", "Market St", "Hayes St", "Irving St", "Clement St", "Union St", "Chestnut St", "24th St"],
     [("Mission", "San Francisco", "San Francisco", "941{03,10}", 9), ("North Beach", "San Francisco",
      "San Francisco", "94133", 6), ("SoMa", "San Francisco", "San Francisco", "941{03,05,07}", 7),
      ("Hayes Valley", "San Francisco", "San Francisco", "94102", 5), ("Marina", "San Francisco",
      "San Francisco", "941{23}", 5), ("Richmond", "San Francisco", "San Francisco", "941{18,21}", 6),
      ("Sausalito", "Sausalito", "Sausalito", "94965", 2)]),
    ("Boston", "MA", "Massachusetts", "US", 42.355, -71.06, 35, ("617", "857"), ["Boston, MA"],
     ["Newbury St", "Boylston St", "Hanover St", "Tremont St", "Washington St", "Massachusetts Ave",
      "Cambridge St", "Charles St", "Salem St"],
     [("Back Bay", "Boston", "Boston", "021{15,16}", 8), ("North End", "Boston", "Boston", "02113", 6),
      ("South End", "Boston", "Boston", "021{18}", 5), ("Cambridge", "Cambridge", "Cambridge", "021{38,39}", 7),
      ("Somerville", "Somerville", "Somerville", "021{43,44}", 3)]),
    ("Washington", "DC", "District of Columbia", "US", 38.905, -77.03, 35, ("202",),
     ["Washington, D.C.", "Washington DC"],
     ["14th St NW", "U St NW", "M St NW", "Wisconsin Ave NW", "Connecticut Ave NW", "H St NE", "Pennsylvania Ave SE",
      "K St NW", "7th St NW", "18th St NW"],
     [("Georgetown", "Washington", "Washington", "20007", 6), ("Dupont Circle", "Washington", "Washington",
      "200{09,36}", 7), ("Adams Morgan", "Washington", "Washington", "20009", 5), ("Penn Quarter", "Washington",
      "Washington", "200{01,04}", 6), ("Capitol Hill", "Washington", "Washington", "200{02,03}", 5)]),
    ("Miami", "FL", "Florida", "US", 25.78, -80.2, 35, ("305", "786"), ["Miami, FL"],
     ["Collins Ave", "Ocean Dr", "Washington Ave", "Lincoln Rd", "SW 8th St", "Biscayne Blvd", "NW 2nd Ave",
      "Brickell Ave", "Alton Rd", "Miracle Mile"],
     [("Brickell", "Miami", "Miami", "331{29,30,31}", 7), ("Wynwood", "Miami", "Miami", "33127", 5),
      ("Little Havana", "Miami", "Miami", "33135", 4), ("South Beach", "Miami Beach", "Miami Beach",
      "331{39,40}", 9), ("Coral Gables", "Coral Gables", "Coral Gables", "331{34,46}", 4)]),
    ("New Orleans", "LA", "Louisiana", "US", 29.955, -90.07, 25, ("504",), ["NOLA", "New Orleans, LA"],
     ["Bourbon St", "Royal St", "Chartres St", "Decatur St", "Magazine St", "Frenchmen St", "St Charles Ave",
      "Canal St", "Tchoupitoulas St", "Oak St"],
     [("French Quarter", "New Orleans", "New Orleans", "70116", 9), ("Garden District", "New Orleans",
      "New Orleans", "701{15,30}", 6), ("Marigny", "New Orleans", "New Orleans", "70117", 4),
      ("Uptown", "New Orleans", "New Orleans", "701{15,18}", 5), ("Metairie", "Metairie", "Metairie", "700{01,05}", 3)]),
    ("Seattle", "WA", "Washington", "US", 47.61, -122.33, 28, ("206",), ["Seattle, WA"],
     ["Pike St", "Pine St", "1st Ave", "Broadway E", "NW Market St", "Ballard Ave NW", "Fremont Ave N",
      "University Way NE", "Rainier Ave S", "E Olive Way"],
     [("Capitol Hill", "Seattle", "Seattle", "981{02,22}", 7), ("Ballard", "Seattle", "Seattle", "98107", 5),
      ("Belltown", "Seattle", "Seattle", "981{01,21}", 6), ("Fremont", "Seattle", "Seattle", "98103", 4),
      ("Bellevue", "Bellevue", "Bellevue", "980{04,05}", 3)]),
    ("Portland", "OR", "Oregon", "US", 45.52, -122.67, 22, ("503", "971"), ["Portland, OR"],
     ["SE Division St", "NW 23rd Ave", "N Mississippi Ave", "SE Hawthorne Blvd", "NE Alberta St",
      "SW Morrison St", "E Burnside St", "NW Glisan St"],
     [("Pearl District", "Portland", "Portland", "97209", 6), ("Downtown", "Portland", "Portland", "972{04,05}", 6),
      ("Hawthorne", "Portland", "Portland", "97214", 5), ("Alberta Arts", "Portland", "Portland", "97211", 4)]),
    ("Austin", "TX", "Texas", "US", 30.27, -97.74, 22, ("512", "737"), ["Austin, TX"],
     ["S Congress Ave", "E 6th St", "S Lamar Blvd", "E Cesar Chavez St", "Rainey St", "N Loop Blvd",
      "Burnet Rd", "Guadalupe St"],
     [("Downtown", "Austin", "Austin", "787{01,02}", 8), ("South Congress", "Austin", "Austin", "78704", 6),
      ("East Austin", "Austin", "Austin", "787{02,22}", 5), ("Hyde Park", "Austin", "Austin", "78751", 3)]),
    ("Las Vegas", "NV", "Nevada", "US", 36.12, -115.17, 22, ("702", "725"), ["Las Vegas, NV", "Vegas"],
     ["Las Vegas Blvd S", "Fremont St", "S Main St", "Spring Mountain Rd", "W Flamingo Rd", "E Tropicana Ave"],
     [("The Strip", "Las Vegas", "Las Vegas", "891{09,19}", 12), ("Downtown", "Las Vegas", "Las Vegas",
      "891{01,04}", 6), ("Chinatown", "Las Vegas", "Las Vegas", "891{02,46}", 4), ("Henderson", "Henderson",
      "Henderson", "890{12,14,52}", 3)]),
    ("Philadelphia", "PA", "Pennsylvania", "US", 39.95, -75.165, 25, ("215", "267"), ["Philly", "Philadelphia, PA"],
     ["Walnut St", "Chestnut St", "South St", "Passyunk Ave", "Frankford Ave", "N 3rd St", "Arch St", "Sansom St"],
     [("Center City", "Philadelphia", "Philadelphia", "191{02,03,07}", 9), ("Old City", "Philadelphia",
      "Philadelphia", "19106", 5), ("Fishtown", "Philadelphia", "Philadelphia", "19125", 5),
      ("East Passyunk", "Philadelphia", "Philadelphia", "191{47,48}", 4)]),
    ("Atlanta", "GA", "Georgia", "US", 33.76, -84.39, 22, ("404", "470", "678"), ["Atlanta, GA", "ATL"],
     ["Peachtree St NE", "Ponce de Leon Ave NE", "Edgewood Ave SE", "N Highland Ave NE", "Howell Mill Rd NW",
      "Marietta St NW", "Euclid Ave NE"],
     [("Midtown", "Atlanta", "Atlanta", "303{08,09}", 7), ("Buckhead", "Atlanta", "Atlanta", "303{05,26}", 6),
      ("Inman Park", "Atlanta", "Atlanta", "30307", 4), ("Decatur", "Decatur", "Decatur", "300{30,33}", 3)]),
    ("Denver", "CO", "Colorado", "US", 39.74, -104.99, 18, ("303", "720"), ["Denver, CO"],
     ["Larimer St", "Blake St", "Tennyson St", "S Broadway", "E Colfax Ave", "Tejon St", "Wazee St"],
     [("LoDo", "Denver", "Denver", "802{02}", 6), ("RiNo", "Denver", "Denver", "80205", 5),
      ("Highlands", "Denver", "Denver", "802{11,12}", 5), ("Cherry Creek", "Denver", "Denver", "80206", 3)]),
    ("Nashville", "TN", "Tennessee", "US", 36.16, -86.78, 16, ("615", "629"), ["Nashville, TN", "Music City"],
     ["Broadway", "12th Ave S", "Gallatin Ave", "Charlotte Pike", "Music Row", "Church St"],
     [("Downtown", "Nashville", "Nashville", "372{01,03,19}", 7), ("The Gulch", "Nashville", "Nashville",
      "37203", 4), ("East Nashville", "Nashville", "Nashville", "372{06,16}", 5)]),
    ("San Diego", "CA", "California", "US", 32.72, -117.16, 18, ("619", "858"), ["San Diego, CA"],
     ["5th Ave", "India St", "Prospect St", "Girard Ave", "University Ave", "Park Blvd", "Garnet Ave"],
     [("Gaslamp Quarter", "San Diego", "San Diego", "92101", 7), ("Little Italy", "San Diego", "San Diego",
      "92101", 4), ("North Park", "San Diego", "San Diego", "92104", 5), ("La Jolla", "La Jolla", "San Diego",
      "92037", 5)]),
    ("St. Louis", "MO", "Missouri", "US", 38.63, -90.2, 10, ("314",), ["Saint Louis", "St Louis"],
     ["Washington Ave", "Delmar Blvd", "S Grand Blvd", "Euclid Ave", "Cherokee St"],
     [("Downtown", "St. Louis", "St. Louis", "631{01,02}", 5), ("Central West End", "St. Louis", "St. Louis",
      "63108", 4), ("The Hill", "St. Louis", "St. Louis", "63110", 3)]),
    ("St. Paul", "MN", "Minnesota", "US", 44.95, -93.09, 7, ("651",), ["Saint Paul", "St Paul"],
     ["Grand Ave", "Selby Ave", "W 7th St", "University Ave W", "Snelling Ave"],
     [("Lowertown", "St. Paul", "St. Paul", "55101", 3), ("Summit Hill", "St. Paul", "St. Paul", "55105", 3)]),
    ("St. Petersburg", "FL", "Florida", "US", 27.77, -82.64, 6, ("727",), ["Saint Petersburg", "St Pete"],
     ["Central Ave", "Beach Dr NE", "4th St N", "MLK Jr St N"],
     [("Downtown", "St. Petersburg", "St. Petersburg", "337{01,05}", 4)]),
    ("Honolulu", "HI", "Hawaii", "US", 21.285, -157.83, 12, ("808",), ["Honolulu, HI"],
     ["Kalakaua Ave", "Kuhio Ave", "Kapahulu Ave", "S King St", "Waialae Ave", "Ala Moana Blvd"],
     [("Waikiki", "Honolulu", "Honolulu", "96815", 7), ("Chinatown", "Honolulu", "Honolulu", "96817", 3),
      ("Kaimuki", "Honolulu", "Honolulu", "96816", 3)]),
    ("Savannah", "GA", "Georgia", "US", 32.08, -81.09, 6, ("912",), ["Savannah, GA"],
     ["Broughton St", "Bull St", "Whitaker St", "River St", "Abercorn St"],
     [("Historic District", "Savannah", "Savannah", "31401", 5)]),
    ("Charleston", "SC", "South Carolina", "US", 32.78, -79.93, 7, ("843",), ["Charleston, SC"],
     ["King St", "Meeting St", "East Bay St", "Queen St", "Upper King St"],
     [("Downtown", "Charleston", "Charleston", "29401", 5), ("Mount Pleasant", "Mount Pleasant",
      "Mount Pleasant", "29464", 2)]),
    ("Santa Fe", "NM", "New Mexico", "US", 35.687, -105.94, 5, ("505",), ["Santa Fe, NM"],
     ["Canyon Rd", "Cerrillos Rd", "Guadalupe St", "San Francisco St", "W Water St"],
     [("Downtown", "Santa Fe", "Santa Fe", "87501", 4)]),
    ("Montréal", "QC", "Québec", "CA", 45.51, -73.57, 30, ("514", "438"), ["Montreal", "Montréal, QC"],
     ["Rue Saint-Denis", "Boulevard Saint-Laurent", "Rue Sainte-Catherine Ouest", "Avenue du Mont-Royal Est",
      "Rue Saint-Paul Ouest", "Rue Notre-Dame Ouest", "Avenue Laurier Ouest", "Rue Saint-Viateur Ouest",
      "Rue Crescent", "Rue Peel"],
     [("Plateau-Mont-Royal", "Montréal", "Montréal", "H2{J,T,W}", 9), ("Vieux-Montréal", "Montréal", "Montréal",
      "H2Y", 6), ("Mile End", "Montréal", "Montréal", "H2{T,V}", 5), ("Centre-Ville", "Montréal", "Montréal",
      "H3{A,B,G}", 7)]),
    ("Québec", "QC", "Québec", "CA", 46.81, -71.21, 10, ("418", "581"), ["Quebec City", "Québec City", "Quebec"],
     ["Rue Saint-Jean", "Grande Allée Est", "Rue Saint-Paul", "Rue du Petit-Champlain", "Avenue Cartier",
      "Rue Saint-Joseph Est"],
     [("Vieux-Québec", "Québec", "Québec", "G1R", 5), ("Saint-Roch", "Québec", "Québec", "G1K", 4),
      ("Montcalm", "Québec", "Québec", "G1R", 3)]),
    ("Toronto", "ON", "Ontario", "CA", 43.65, -79.39, 35, ("416", "647"), ["Toronto, ON"],
     ["Queen St W", "King St W", "Ossington Ave", "Dundas St W", "College St", "Yonge St", "Spadina Ave",
      "Bloor St W", "Danforth Ave", "Front St E"],
     [("Downtown", "Toronto", "Toronto", "M5{H,J,V}", 9), ("Queen West", "Toronto", "Toronto", "M6J", 6),
      ("Yorkville", "Toronto", "Toronto", "M5R", 4), ("Leslieville", "Toronto", "Toronto", "M4M", 4),
      ("The Danforth", "Toronto", "Toronto", "M4K", 4)]),
    ("Vancouver", "BC", "British Columbia", "CA", 49.28, -123.12, 20, ("604", "778"), ["Vancouver, BC"],
     ["Main St", "Granville St", "Robson St", "W 4th Ave", "Commercial Dr", "Davie St", "Water St"],
     [("Gastown", "Vancouver", "Vancouver", "V6B", 5), ("Kitsilano", "Vancouver", "Vancouver", "V6K", 5),
      ("Mount Pleasant", "Vancouver", "Vancouver", "V5T", 4), ("West End", "Vancouver", "Vancouver", "V6E", 4)]),
    ("Paris", "", "Île-de-France", "FR", 48.86, 2.345, 25, ("1",), ["Paris, France"],
     ["Rue de Rivoli", "Boulevard Saint-Germain", "Rue Oberkampf", "Rue des Martyrs", "Rue de Bretagne",
      "Rue Montorgueil", "Rue du Faubourg Saint-Denis", "Avenue de l'Opéra", "Rue de Charonne", "Rue Saint-Honoré"],
     [("Le Marais", "Paris", "Paris", "750{03,04}", 7), ("Saint-Germain-des-Prés", "Paris", "Paris", "750{06,07}", 6),
      ("Montmartre", "Paris", "Paris", "75018", 5), ("Bastille", "Paris", "Paris", "750{11,12}", 6)]),
    ("London", "", "England", "GB", 51.51, -0.13, 25, ("20",), ["London, UK"],
     ["Dean Street", "Brick Lane", "Borough High Street", "Exmouth Market", "Upper Street", "Old Compton Street",
      "Marylebone High Street", "Kingsland Road", "Portobello Road", "Charlotte Street"],
     [("Soho", "London", "London", "W1{D,F}", 7), ("Shoreditch", "London", "London", "E{1,2}", 6),
      ("Borough", "London", "London", "SE1", 4), ("Islington", "London", "London", "N1", 5),
      ("Marylebone", "London", "London", "W1{U,G}", 4)]),
    ("Barcelona", "", "Catalonia", "ES", 41.39, 2.17, 12, ("93",), ["Barcelona, Spain"],
     ["Carrer de Mallorca", "Carrer del Parlament", "Passeig de Gràcia", "Carrer de Verdi", "Carrer de Blai",
      "Rambla del Raval", "Carrer d'Enric Granados"],
     [("Eixample", "Barcelona", "Barcelona", "080{07,08,36}", 6), ("Gràcia", "Barcelona", "Barcelona", "08012", 4),
      ("El Born", "Barcelona", "Barcelona", "08003", 3)]),
    ("Berlin", "", "Berlin", "DE", 52.52, 13.405, 12, ("30",), ["Berlin, Germany"],
     ["Torstraße", "Oranienstraße", "Kastanienallee", "Bergmannstraße", "Weserstraße", "Kantstraße",
      "Schönhauser Allee"],
     [("Mitte", "Berlin", "Berlin", "101{15,17,19}", 6), ("Kreuzberg", "Berlin", "Berlin", "109{61,97,99}", 5),
      ("Prenzlauer Berg", "Berlin", "Berlin", "104{05,35,37}", 4), ("Neukölln", "Berlin", "Berlin", "120{43,47}", 3)]),
]

_GENERIC_STREETS = (
    "Main Oak Maple Cedar Pine Elm Washington Lake Hill Park Church Water Market Front Center Union Highland "
    "Franklin Jefferson Lincoln Madison Jackson Walnut Chestnut Willow Cherry Prospect Liberty Commerce High "
    "College Spring Mill Bridge Grove Magnolia Vine Court Pearl Hamilton Adams Monroe Clinton Division"
).split()
_GENERIC_TYPES = ["St"] * 8 + ["Ave"] * 6 + ["Blvd"] * 2 + ["Rd", "Dr", "Pl", "Ln", "Way", "Ct", "Pkwy", "Sq"]
_TYPE_LONG = {"St": "Street", "Ave": "Avenue", "Blvd": "Boulevard", "Rd": "Road", "Dr": "Drive", "Pl": "Place",
              "Ln": "Lane", "Way": "Way", "Ct": "Court", "Pkwy": "Parkway", "Sq": "Square", "Hwy": "Highway"}
_TYPE_DOT = {"St": "St.", "Ave": "Ave.", "Blvd": "Blvd.", "Rd": "Rd.", "Dr": "Dr.", "Pl": "Pl.", "Ln": "Ln.",
             "Way": "Way", "Ct": "Ct.", "Pkwy": "Pkwy.", "Sq": "Sq.", "Hwy": "Hwy."}
_DIR_LONG = {"N": "North", "S": "South", "E": "East", "W": "West", "NE": "Northeast", "NW": "Northwest",
             "SE": "Southeast", "SW": "Southwest"}
_ORDINAL_WORDS = {"1st": "First", "2nd": "Second", "3rd": "Third", "4th": "Fourth", "5th": "Fifth", "6th": "Sixth",
                  "7th": "Seventh", "8th": "Eighth", "9th": "Ninth", "10th": "Tenth", "12th": "Twelfth"}
_STATE_CODES = {
    "NY": "New York", "CA": "California", "IL": "Illinois", "MA": "Massachusetts", "DC": "District of Columbia",
    "FL": "Florida", "LA": "Louisiana", "WA": "Washington", "OR": "Oregon", "TX": "Texas", "NV": "Nevada",
    "PA": "Pennsylvania", "GA": "Georgia", "CO": "Colorado", "TN": "Tennessee", "MO": "Missouri", "MN": "Minnesota",
    "HI": "Hawaii", "SC": "South Carolina", "NM": "New Mexico", "QC": "Québec", "ON": "Ontario",
    "BC": "British Columbia",
}

# --- names ------------------------------------------------------------------------------------------------

_FIRST = ("Joe Mario Maria Tony Tommy Sal Vinny Frankie Rosa Lucia Carmine Arturo Art Eddie Mike Nick Sam Lou "
          "Katz Barney Gus Jimmy Johnny Rocco Angelo Marco Paolo Pietro Bobby Lola Ruby Stella Nora Ivy Hattie "
          "Minnie Mabel Elsie Otto Hugo Felix Oscar Pablo Diego Rosita Mei Ling Kenji Yuki Hana").split()
_SURNAME = ("Carmine Peter Luger Keens Gallagher Sparks Murphy Kelly Walsh Nolan Brennan Romano Russo Esposito "
            "Bianchi Rossi Ferrara Marino Costa Greco Conti Levy Katz Stein Schwartz Weiss Kaplan Novak Dubois "
            "Martin Bernard Moreau Laurent Lefebvre Garcia Lopez Morales Ortiz Ramos Tanaka Sato Kim Park Lee "
            "Nguyen Tran Chen Wong Singh Patel Shah Hughes Fletcher Barlow Whitman Cooper Hayes Porter").split()
_ITALIAN = ("Lupa Babbo Scarpetta Carbone Locanda Fiorella Sorella Bottega Perla Rosa Lucciola Vespa Amaro Basta "
            "Cena Dolce Fiore Forno Gemma Lido Mare Nonna Piccolo Primo Stella Terra Tavola Vino Zucca Felice "
            "Bella Buona Fratelli Sotto Sopra Quattro Trecolori Aldo Rubirosa Lilia Misi Marea Via Carota "
            "Maialino Del Posto Rezdora Ci Siamo").split()
_FRENCH = ("Lapin Coq Rouge Bouchon Cocotte Papillon Soleil Maison Petit Lune Étoile Pomme Jardin Balthazar "
           "Ciel Mistral Provence Marché Bistrot Rivière Château Côte Brûlée Crème Sœur Fleur Cœur Mouton Chèvre "
           "Café Océan Verte Bleue Noisette Épicerie Frère Amélie Hélène Dame Renée").split()
_SPANISH = ("Cielo Sol Luna Verde Casa Fuego Mar Agave Nopal Jalisco Oaxaca Cantina Mañana Corazón Jalapeño "
            "Palapa Tierra Paloma Rosita Señor Esquina Toro Bravo Cuatro Azul Caliente Pueblo Chiquito Niño").split()
_ASIAN = ("Sakura Kin Hana Momo Kaiju Yuzu Ume Tora Lotus Jade Bamboo Dragon Tiger Phoenix Lucky Golden Saigon "
          "Hanoi Bangkok Chiang Mai Seoul Tokyo Osaka Kyoto Sichuan Hunan Canton Szechuan Mandalay Kabul "
          "Bombay Delhi Kerala Dosa Tandoor Nori Ippudo Totto Mochi Bao Dim Sum").split()
_ADJ = ("Blue Red Golden Silver Old Little Grand Green White Black Wild Lazy Happy Hidden Crooked Rusty Salty "
        "Smoky Spotted Drunken Hungry Jolly Dirty Velvet Iron Copper Brass Wooden Gilded Humble Honest "
        "Clever Lucky Secret Sunny Rolling Painted Urban Royal Noble Hollow Twisted").split()
_NOUN = ("Pig Rooster Fox Bear Owl Crow Anchor Lantern Kettle Acorn Oyster Lobster Spoon Fork Ladle Barrel "
         "Goat Lamb Hen Duck Swan Stag Hare Boar Otter Whale Pelican Compass Table Larder Pantry Cellar Hearth "
         "Garden Orchard Harvest Tide Wharf Pier Mill Bell Crown Star Moon Sun Cup Saucer Bowl Plate Knot").split()
_CUISINE_TYPE = ["Kitchen", "Grill", "Bistro", "Tavern", "Eatery", "Brasserie", "Cantina", "Diner", "Café",
                 "Steakhouse", "Oyster Bar", "Noodle House", "Pizzeria", "Trattoria", "Taqueria", "Smokehouse"]
_THINGS = ("Modern Art|Natural History|the City|Science|Illusions|Ice Cream|Broken Relationships|Jazz|the Moving "
           "Image|Contemporary Art|Design|Fine Arts|Arts and Design|Photography|Immigration|Folk Art").split("|")

# (brand, domain, category, weight)
_CHAINS = [
    ("Starbucks", "starbucks.com", "cafe", 30), ("Dunkin'", "dunkindonuts.com", "cafe", 10),
    ("Peet's Coffee", "peets.com", "cafe", 5), ("Blue Bottle Coffee", "bluebottlecoffee.com", "cafe", 4),
    ("Chipotle Mexican Grill", "chipotle.com", "restaurant", 10), ("Shake Shack", "shakeshack.com", "restaurant", 6),
    ("Sweetgreen", "sweetgreen.com", "restaurant", 6), ("Panera Bread", "panerabread.com", "restaurant", 5),
    ("Pret A Manger", "pret.com", "restaurant", 5), ("Le Pain Quotidien", "lepainquotidien.com", "restaurant", 4),
    ("Five Guys", "fiveguys.com", "restaurant", 5), ("McDonald's", "mcdonalds.com", "restaurant", 12),
    ("Subway", "subway.com", "restaurant", 10), ("Joe's Pizza", "joespizzanyc.com", "restaurant", 2),
    ("In-N-Out Burger", "in-n-out.com", "restaurant", 3), ("Tim Hortons", "timhortons.ca", "cafe", 6),
    ("Paul", "paul-international.com", "cafe", 3), ("Le Labo", "lelabofragrances.com", "shop", 2),
    ("Apple Store", "apple.com", "shop", 2), ("Walgreens", "walgreens.com", "shop", 6),
    ("CVS Pharmacy", "cvs.com", "shop", 6), ("Whole Foods Market", "wholefoodsmarket.com", "shop", 3),
    ("Trader Joe's", "traderjoes.com", "shop", 3), ("Ace Hotel", "acehotel.com", "hotel", 1),
    ("Kimpton", "kimptonhotels.com", "hotel", 2), ("Marriott", "marriott.com", "hotel", 3),
    ("Hampton Inn", "hilton.com", "hotel", 3), ("Holiday Inn Express", "ihg.com", "hotel", 2),
]
_CHAIN_CUM = []
_acc = 0
for _c in _CHAINS:
    _acc += _c[3]
    _CHAIN_CUM.append(_acc)

# short forms: long word -> what a guide writes for it ("" drops the word)
_SHORT = [("Delicatessen", "Deli"), ("Restaurant", ""), ("Company", "Co."), ("Brothers", "Bros."),
          ("Saint", "St."), ("Mount", "Mt."), ("Barbecue", "BBQ"), ("Pizzeria", "Pizza"), ("Steakhouse", "Steak House"),
          ("Coffee Roasters", "Coffee"), ("Trattoria", ""), ("Osteria", ""), ("Taqueria", ""), ("Brasserie", ""),
          ("Kitchen", ""), ("Bakery", "Bakeshop"), ("Oyster Bar", "Oysters"), ("Noodle House", "Noodles"),
          ("Museum of", "Museum"), ("Hotel", ""), ("and", "&")]

_TLD = {"US": ".com", "CA": ".ca", "FR": ".fr", "GB": ".co.uk", "ES": ".es", "DE": ".de"}


class Guides(NamedTuple):
    a: list[dict]
    b: list[dict]
    truth: list[tuple[int, int]]
    divergences: dict[int, list[str]]
    hard_negatives: list[tuple[int, int, str]]


def fold_accents(text: str) -> str:
    text = text.replace("œ", "oe").replace("Œ", "OE").replace("ß", "ss")
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def _expand_zips(template: str) -> list[str]:
    if "{" not in template:
        return [template]
    head, rest = template.split("{", 1)
    body, tail = rest.split("}", 1)
    out = []
    for part in body.split(","):
        if "-" in part:
            lo, hi = part.split("-")
            out += [head + str(k).zfill(len(lo)) + tail for k in range(int(lo), int(hi) + 1)]
        else:
            out.append(head + part + tail)
    return out


class _Street(NamedTuple):
    name: str  # "Main", "4th", "Broadway", "Rue Saint-Denis", "Torstraße"
    kind: str | None  # "St" ... (None when the name holds it)
    predir: str | None
    postdir: str | None
    lat: float
    lng: float
    bearing: float
    top: int  # highest house number


class _Place:
    __slots__ = ("pid", "metro", "district", "category", "name", "street", "number", "suite", "building", "zip",
                 "phone", "domain", "path", "lat", "lng", "group", "group_kind", "in_a", "in_b", "chain")

    def __init__(self, **kw):
        for k in self.__slots__:
            setattr(self, k, kw.get(k))


class _Gen:
    def __init__(self, n: int, seed: int):
        self.rng = random.Random(seed)
        self.rng_seed = seed
        self.n = n
        self.places: list[_Place] = []
        self.phones: set[str] = set()
        self.groups = 0
        self.streets: dict[tuple[int, int], list[_Street]] = {}
        self.zips: dict[tuple[int, int], list[str]] = {}

    # --- geography ---------------------------------------------------------------------------------------
    def _parse_street(self, text: str, country: str) -> tuple[str, str | None, str | None, str | None]:
        if country not in ("US", "CA") or text.startswith(("Rue ", "Boulevard ", "Avenue ", "Grande ")):
            return text, None, None, None
        words = text.split()
        predir = words.pop(0) if len(words) >= 2 and words[0] in _DIR_LONG else None
        postdir = words.pop() if len(words) > 2 and words[-1] in _DIR_LONG else None
        if len(words) >= 2 and words[-1] in _TYPE_LONG:
            return " ".join(words[:-1]), words[-1], predir, postdir
        return " ".join(words), None, predir, postdir

    def district_streets(self, m: int, d: int) -> list[_Street]:
        key = (m, d)
        if key in self.streets:
            return self.streets[key]
        metro = _METROS[m]
        rng = random.Random(hash_seed(self.rng_seed, m, d))
        country = metro[3]
        count = 6 + metro[10][d][4] * 2
        names: list[str] = []
        # each signature street runs through one district (a long one through a second too)
        districts = len(metro[10])
        for k, street in enumerate(metro[9]):
            if k % districts == d or (districts > 1 and hash_seed(self.rng_seed, m, street) % (3 * districts) == d):
                names.append(street)
        saints = ("Saint-Denis Saint-Laurent Sainte-Catherine Saint-Jean Saint-Joseph Saint-Paul Saint-Hubert "
                  "Sainte-Anne Saint-Viateur Saint-Urbain").split()
        names_fr = "Rivoli Bretagne Charonne Martyrs Oberkampf Lepic Cler Mouffetard Turenne Vieille-du-Temple".split()
        while len(names) < count:
            if country == "US" or (country == "CA" and metro[1] != "QC"):
                if rng.random() < 0.25:
                    k = rng.randint(1, 60)
                    ordinal = f"{k}{'th' if 10 <= k % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(k % 10, 'th')}"
                    names.append(f"{rng.choice(['', 'E ', 'W ', 'N ', 'S '])}{ordinal} {rng.choice(['St', 'Ave'])}")
                else:
                    names.append(f"{rng.choice(['', '', '', 'N ', 'S ', 'E ', 'W '])}{rng.choice(_GENERIC_STREETS)} "
                                 f"{rng.choice(_GENERIC_TYPES)}")
            elif country == "CA":
                names.append(f"{rng.choice(['Rue', 'Rue', 'Avenue', 'Boulevard'])} "
                             f"{rng.choice(saints + _SURNAME)}{rng.choice(['', '', ' Est', ' Ouest'])}")
            elif country == "FR":
                names.append(f"{rng.choice(['Rue', 'Rue', 'Rue', 'Boulevard', 'Avenue'])} "
                             f"{rng.choice(['de ', 'des ', 'du ', ''])}{rng.choice(names_fr + _SURNAME)}")
            elif country == "GB":
                names.append(f"{rng.choice(_GENERIC_STREETS + _SURNAME)} {rng.choice(['Street', 'Street', 'Road', 'Lane', 'Place'])}")
            elif country == "DE":
                names.append(f"{rng.choice(_SURNAME + _GENERIC_STREETS)}{rng.choice(['straße', 'straße', 'weg', 'platz'])}")
            else:
                names.append(f"Carrer {rng.choice(['de ', 'del ', 'de la '])}{rng.choice(_SURNAME + _SPANISH)}")
        clat, clng = metro[4], metro[5]
        dlat = clat + rng.uniform(-0.06, 0.06)
        dlng = clng + rng.uniform(-0.08, 0.08)
        streets = []
        seen = set()
        for text in names:
            if text in seen:
                continue
            seen.add(text)
            name, kind, predir, postdir = self._parse_street(text.strip(), country)
            streets.append(_Street(name, kind, predir, postdir, dlat + rng.uniform(-0.02, 0.02),
                                   dlng + rng.uniform(-0.025, 0.025), rng.uniform(0, math.pi),
                                   rng.choice([400, 900, 1800, 3000, 6000, 12000]) if country in ("US", "CA")
                                   else rng.choice([60, 120, 250])))
        self.streets[key] = streets
        return streets

    def district_zips(self, m: int, d: int) -> list[str]:
        key = (m, d)
        if key not in self.zips:
            self.zips[key] = _expand_zips(_METROS[m][10][d][3])
        return self.zips[key]

    def pick_street(self, m: int, d: int) -> _Street:
        streets = self.district_streets(m, d)
        # a few commercial streets hold most places
        k = min(len(streets) - 1, int(self.rng.paretovariate(1.1)) - 1)
        return streets[k]

    def number(self, street: _Street) -> str:
        return str(self.rng.randint(1, street.top))

    def zip_for(self, m: int, d: int, street: _Street, number: str) -> str:
        zips = self.district_zips(m, d)
        num = int("".join(c for c in number if c.isdigit()) or 0)
        h = hash_seed(self.rng_seed, street.name, num // 400) % len(zips)
        base = zips[h]
        country = _METROS[m][3]
        if country == "CA":
            r = random.Random(hash_seed(self.rng_seed, street.name, num // 100))
            return f"{base} {r.randint(1, 9)}{r.choice('ABCEGHJKLMNPRSTVWXYZ')}{r.randint(1, 9)}"
        if country == "GB":
            r = random.Random(hash_seed(self.rng_seed, street.name, num // 20))
            return f"{base} {r.randint(1, 9)}{r.choice('ABDEFGHJLNPQRSTUWXYZ')}{r.choice('ABDEFGHJLNPQRSTUWXYZ')}"
        return base

    def coords(self, street: _Street, number: str) -> tuple[float, float]:
        num = int("".join(c for c in number if c.isdigit()) or 0)
        metres = num * (0.8 if street.top > 300 else 6.0)
        side = 8.0 if num % 2 else -8.0
        dn = metres * math.cos(street.bearing) + side * math.sin(street.bearing)
        de = metres * math.sin(street.bearing) - side * math.cos(street.bearing)
        lat = street.lat + dn / 111_320
        lng = street.lng + de / (111_320 * math.cos(math.radians(street.lat)))
        return round(lat, 6), round(lng, 6)

    def phone(self, m: int) -> str:
        """The national digits: ten for North America, else the country's own length."""
        metro = _METROS[m]
        country = metro[3]
        while True:
            area = self.rng.choice(metro[7])
            if country in ("US", "CA"):
                digits = f"{area}{self.rng.randint(200, 999)}{self.rng.randint(0, 9999):04d}"
            elif country == "FR":
                digits = f"{self.rng.choice(['1', '1', '1', '9'])}{self.rng.randint(0, 99_999_999):08d}"
            elif country == "GB":
                digits = f"20{self.rng.choice('378')}{self.rng.randint(0, 9_999_999):07d}"
            elif country == "ES":
                digits = f"93{self.rng.randint(0, 9_999_999):07d}"
            else:
                digits = f"30{self.rng.randint(1_000_000, 99_999_999)}"
            if digits not in self.phones:
                self.phones.add(digits)
                return digits

    # --- names -------------------------------------------------------------------------------------------
    def name(self, category: str) -> str:
        r, c = self.rng, self.rng.choice
        if category == "restaurant":
            k = r.randrange(22)
            if k == 0:
                return f"{c(_SURNAME)}'s"
            if k == 1:
                return f"{c(_FIRST)}'s {c(['Pizza', 'Pizzeria', 'Diner', 'Kitchen', 'Grill', 'Tavern', 'Place'])}"
            if k in (2, 3):
                return c(_ITALIAN) if r.random() < 0.5 else f"{c(['Trattoria', 'Osteria', 'Enoteca'])} {c(_ITALIAN)}"
            if k == 4:
                return f"{c(['Café', 'Brasserie', 'Bistro', 'Chez', 'Le', 'La'])} {c(_FRENCH) if r.random() < 0.8 else c(_FIRST)}"
            if k in (5, 6):
                return f"The {c(_ADJ)} {c(_NOUN)}"
            if k == 7:
                return f"{c(_NOUN)} & {c(_NOUN)}"
            if k in (8, 9):
                word = c(_ASIAN)
                return c([f"{word} Sushi", f"Sushi {word}", f"{word} Ramen", f"Pho {word}", f"{word} Thai",
                          f"{word} Noodle House", f"{word} Dumpling House", f"{word} Garden", f"{word} Palace"])
            if k in (10, 11):
                return f"{c(_ADJ + _ITALIAN + _SPANISH)} {c(_CUISINE_TYPE)}"
            if k == 12:
                return f"{c(_SURNAME)}'s {c(['Steakhouse', 'Delicatessen', 'Oyster Bar', 'Chop House', 'Barbecue'])}"
            if k == 13:
                return f"{c(_FIRST)}'s Delicatessen" if r.random() < 0.5 else f"{c(_SURNAME)} & {c(_SURNAME)}"
            if k == 14:
                return f"{c(['Taqueria', 'Cantina', 'La Casa de', 'El'])} {c(_SPANISH)}"
            if k == 15:
                return f"{r.randint(1, 999)} {c(_GENERIC_STREETS)}" if r.random() < 0.5 else f"{c(_NOUN)} {r.randint(2, 99)}"
            if k == 16:
                return f"{c(_ADJ)} {c(_NOUN)} Restaurant"
            if k == 17:
                return f"{c(_SURNAME)} Brothers {c(['Pizza', 'Bakery', 'Restaurant', 'Barbecue'])}"
            if k == 18:
                return f"{c(_NOUN)} {c(['Bar & Grill', 'and Vine', '& Larder', 'House'])}"
            if k == 19:
                return f"{c(_ITALIAN + _FRENCH + _SPANISH + _ASIAN)}"
            if k == 20:
                return f"{c(_ASIAN)} {c(['Tandoor', 'Curry House', 'Kitchen', 'BBQ', 'Hot Pot'])}"
            return f"{c(_FIRST)} & {c(_FIRST)}'s"
        if category == "cafe":
            k = r.randrange(6)
            w = c(_ADJ + _NOUN + _ITALIAN + _FRENCH)
            return [f"{w} Coffee", f"{w} Coffee Roasters", f"{w} Bakery", f"Boulangerie {c(_FRENCH)}",
                    f"Pâtisserie {c(_FRENCH + _FIRST)}", f"Café {w}"][k]
        if category == "bar":
            k = r.randrange(6)
            return [f"The {c(_ADJ)} {c(_NOUN)}", f"{c(_SURNAME)}'s Pub", f"{c(_NOUN)} Tavern",
                    f"{c(_ITALIAN + _FRENCH)} Wine Bar", f"The {c(_NOUN)} Room", f"{c(_ADJ)} {c(_NOUN)} Brewing Company"][k]
        if category == "shop":
            k = r.randrange(6)
            return [f"{c(_ADJ + _NOUN)} Books", f"{c(_SURNAME)} & Sons", f"{c(_ADJ)} {c(_NOUN)} Records",
                    f"{c(_SURNAME)} Gallery", f"{c(_NOUN)} Market", f"{c(_FRENCH + _ITALIAN)} Boutique"][k]
        if category == "hotel":
            k = r.randrange(6)
            return [f"The {c(_SURNAME)}", f"Hotel {c(_FRENCH + _ITALIAN + _SURNAME)}", f"The {c(_ADJ)} {c(_NOUN)} Inn",
                    f"{c(_SURNAME)} House", f"The {c(_NOUN)} Hotel", f"Hôtel {c(_FRENCH)}"][k]
        k = r.randrange(4)
        return [f"Museum of {c(_THINGS)}", f"{c(_SURNAME)} Gardens", f"{c(_SURNAME)} Theatre",
                f"The {c(_SURNAME)} Collection"][k]

    def domain(self, name: str, m: int) -> str:
        words = [w for w in fold_accents(name).lower().replace("&", " ").split() if w not in ("the", "and")]
        slug = "".join(ch for ch in "".join(words) if ch.isalnum())[:24] or "place"
        metro = _METROS[m]
        r = self.rng.random()
        if r < 0.35:
            slug += fold_accents(metro[0]).lower().replace(" ", "").replace(".", "")[:12]
        elif r < 0.5:
            slug += "".join(w[0] for w in metro[0].split()).lower()
        return slug + (_TLD[metro[3]] if self.rng.random() < 0.7 else ".com")

    # --- places ------------------------------------------------------------------------------------------
    def new_group(self, kind: str) -> tuple[int, str]:
        self.groups += 1
        return self.groups, kind

    def add(self, m: int, d: int, category: str, name: str, street: _Street | None = None, number: str | None = None,
            group: tuple[int, str] | None = None, **kw) -> _Place:
        street = street or self.pick_street(m, d)
        number = number or self.number(street)
        lat, lng = self.coords(street, number)
        p = _Place(pid=len(self.places), metro=m, district=d, category=category, name=name, street=street,
                   number=number, zip=self.zip_for(m, d, street, number), lat=lat, lng=lng,
                   group=group[0] if group else None, group_kind=group[1] if group else None)
        p.phone = kw.get("phone", self.phone(m))
        p.domain = kw.get("domain", self.domain(name, m) if self.rng.random() < 0.85 else None)
        p.path = kw.get("path")
        p.suite = kw.get("suite")
        p.building = kw.get("building")
        p.chain = kw.get("chain")
        self.places.append(p)
        return p

    def build(self) -> None:
        rng = self.rng
        target = max(40, round(self.n * 0.75))
        weights = [mt[6] for mt in _METROS]
        total_w = sum(weights)
        for m, metro in enumerate(_METROS):
            quota = max(8, round(target * metro[6] / total_w))
            shares = [d[4] for d in metro[10]]
            start = len(self.places)
            while len(self.places) - start < quota:
                d = rng.choices(range(len(shares)), shares)[0]
                self.add_something(m, d)

    def add_something(self, m: int, d: int) -> None:
        rng = self.rng
        x = rng.random()
        if x < 0.09:
            self.add_chain_outlet(m, d)
        elif x < 0.105:
            self.add_food_hall(m, d)
        elif x < 0.13:
            self.add_hotel(m, d)
        elif x < 0.15:
            self.add_building(m, d)
        elif x < 0.18:
            self.add_sister(m, d)
        elif x < 0.21:
            self.add_neighbours(m, d)
        else:
            category = rng.choices(["restaurant", "cafe", "bar", "shop", "attraction"], [62, 14, 12, 9, 3])[0]
            self.add(m, d, category, self.name(category))

    def add_chain_outlet(self, m: int, d: int) -> None:
        rng = self.rng
        k = bisect_right(_CHAIN_CUM, rng.random() * _CHAIN_CUM[-1])
        brand, domain, category, _ = _CHAINS[k]
        if brand == "Tim Hortons" and _METROS[m][3] != "CA" and rng.random() < 0.8:
            brand, domain, category = "Starbucks", "starbucks.com", "cafe"
        key = ("chain", m, brand)
        group = self.chain_groups.get(key)
        if group is None:
            group = self.chain_groups[key] = self.new_group("chain")
        street = None
        # outlets of a brand on a street it already has (two Starbucks on Broadway)
        same = [p for p in self.chain_outlets.get(key, []) if p.district == d]
        if same and rng.random() < 0.2:
            street = rng.choice(same).street
        r = rng.random()
        path = f"/store-locator/store/{rng.randint(1000, 99999)}" if r < 0.4 else (
            f"/locations/{fold_accents(_METROS[m][0]).lower().replace(' ', '-').replace('.', '')}-{rng.randint(1, 400)}"
            if r < 0.6 else None)
        p = self.add(m, d, category, brand, street=street, group=group, domain=domain, path=path, chain=brand)
        self.chain_outlets.setdefault(key, []).append(p)

    def add_food_hall(self, m: int, d: int) -> None:
        rng = self.rng
        group = self.new_group("same_address")
        hall_name = rng.choice([f"{rng.choice(_SURNAME)} Market", f"{rng.choice(_ADJ)} {rng.choice(_NOUN)} Food Hall",
                                f"The {rng.choice(_NOUN)} Market Hall", f"{rng.choice(_GENERIC_STREETS)} Street Market",
                                f"Mercado {rng.choice(_SPANISH)}", f"Marché {rng.choice(_FRENCH)}"])
        hall = self.add(m, d, "attraction", hall_name, group=group)
        for k in range(rng.randint(3, 12)):
            category = rng.choice(["restaurant", "restaurant", "restaurant", "cafe", "bar", "shop"])
            stall = rng.choice([None, None, f"Stall {k + 1}", f"#{k + 1}", f"Suite {100 + k}"])
            phone = self.phone(m) if rng.random() < 0.6 else (hall.phone if rng.random() < 0.5 else None)
            domain = None if rng.random() < 0.4 else self.domain(self.name(category), m)
            self.add(m, d, category, self.name(category), street=hall.street, number=hall.number, group=group,
                     suite=stall, phone=phone, domain=domain,
                     building=hall_name if rng.random() < 0.3 else None)

    def add_hotel(self, m: int, d: int) -> None:
        rng = self.rng
        name = self.name("hotel")
        if rng.random() < 0.45:
            group = self.new_group("same_address")
            hotel = self.add(m, d, "hotel", name, group=group)
            base = name[4:] if name.startswith("The ") else name.replace("Hotel ", "").replace("Hôtel ", "")
            for _ in range(rng.choice([1, 1, 1, 2])):
                outlet = rng.choice([f"{base} Grill", f"The Bar at {base}", f"{base} Restaurant", f"{base} Rooftop",
                                     f"{base} Kitchen", self.name("restaurant"), self.name("bar"), f"Café {base}"])
                phone = hotel.phone if rng.random() < 0.35 else self.phone(m)
                domain = hotel.domain if rng.random() < 0.4 else None
                path = "/dining" if domain else None
                self.add(m, d, rng.choice(["restaurant", "bar"]), outlet, street=hotel.street, number=hotel.number,
                         group=group, phone=phone, domain=domain or self.domain(outlet, m), path=path,
                         building=name if rng.random() < 0.3 else None)
        else:
            self.add(m, d, "hotel", name)

    def add_building(self, m: int, d: int) -> None:
        """Shops and restaurants of one building or mall, other suites."""
        rng = self.rng
        group = self.new_group("same_address")
        street = self.pick_street(m, d)
        number = self.number(street)
        building = rng.choice([None, f"{rng.choice(_SURNAME)} Plaza", f"{rng.choice(_SURNAME)} Center",
                               f"The {rng.choice(_SURNAME)} Building"])
        for k in range(rng.randint(2, 5)):
            category = rng.choice(["restaurant", "cafe", "shop", "shop"])
            self.add(m, d, category, self.name(category), street=street, number=number, group=group,
                     suite=str(rng.choice([100, 101, 102, 105, 110, 120, 200, 201, 210, 300])+k), building=building)

    def add_sister(self, m: int, d: int) -> None:
        """Two places of similar names on one street: sister concepts, or names one letter apart."""
        rng = self.rng
        group = self.new_group("similar_name_same_street")
        category = rng.choice(["restaurant", "restaurant", "cafe", "bar"])
        first = self.add(m, d, category, self.name(category), group=group)
        name = first.name
        r = rng.random()
        if r < 0.5:
            base = name[4:] if name.startswith("The ") else name
            other = rng.choice([f"{base} Bar", f"{base} Next Door", f"{base} Express", f"Little {base}",
                                f"{base} To Go", f"{base} Bakery", f"{base} Wine Bar", f"{base} Cantina"])
        elif r < 0.8 and "'s" in name:
            first_word = name.split("'s")[0]
            swaps = [f for f in _FIRST + _SURNAME if f != first_word and f[:3] == first_word[:3]]
            other = name.replace(first_word, rng.choice(swaps), 1) if swaps else name + " II"
            if rng.random() < 0.5:
                other = other.replace("Pizza", "Pizzeria").replace("Grill", "Kitchen")
        else:
            words = name.split()
            other = " ".join(reversed(words)) if len(words) == 2 and "&" not in name else f"{name} {rng.choice(['Uptown', 'Downtown', 'East', 'West'])}"
        number = str(int(first.number) + rng.choice([-1, 1]) * rng.randint(0, 40) * 2) if first.number.isdigit() else None
        if number is not None and int(number) < 1:
            number = None
        self.add(m, d, category, other, street=first.street, number=number, group=group)

    def add_neighbours(self, m: int, d: int) -> None:
        """Different places at neighbouring house numbers (924 and 926), often of one kind."""
        rng = self.rng
        group = self.new_group("neighbouring_number")
        category = rng.choice(["restaurant", "restaurant", "cafe", "bar", "shop"])
        first = self.add(m, d, category, self.name(category), group=group)
        step = 1 if first.street.top < 300 else 2
        num = int(first.number)
        number = str(num + step if rng.random() < 0.5 or num <= step else num - step)
        self.add(m, d, rng.choice([category, "restaurant"]), self.name(category), street=first.street, number=number,
                 group=group)

    def run(self) -> Guides:
        self.chain_groups: dict = {}
        self.chain_outlets: dict = {}
        self.build()
        rng = self.rng
        # which guide lists each place: a metro-level share in both
        both_share = [rng.uniform(0.27, 0.40) for _ in _METROS]
        for p in self.places:
            x = rng.random()
            both = both_share[p.metro]
            p.in_a = x < both or x >= both + (1 - both) / 2
            p.in_b = x < both + (1 - both) / 2
        style_a, style_b = _STYLE_A, _STYLE_B
        rows_a, rows_b = [], []
        for p in self.places:
            if p.in_a:
                rows_a.append((p, *render(p, style_a, rng)))
            if p.in_b:
                rows_b.append((p, *render(p, style_b, rng)))
        rng.shuffle(rows_a)
        rng.shuffle(rows_b)
        id_a: dict[int, int] = {}
        id_b: dict[int, int] = {}
        a, b = [], []
        for k, (p, row, _) in enumerate(rows_a, 1):
            row["id"] = k
            id_a[p.pid] = k
            a.append(row)
        for k, (p, row, _) in enumerate(rows_b, 1):
            row["id"] = B_ID_BASE + k
            id_b[p.pid] = B_ID_BASE + k
            b.append(row)
        trace_a = {p.pid: (row, ops) for p, row, ops in rows_a}
        truth, divergences = [], {}
        for p, row, ops in rows_b:
            if p.pid in trace_a:
                truth.append((id_a[p.pid], row["id"]))
                row_a, ops_a = trace_a[p.pid]
                divergences[row["id"]] = pair_divergences(row_a, ops_a, row, ops)
        truth.sort()
        hard = self.hard_negative_pairs(id_a, id_b, a, b)
        return Guides(a, b, truth, divergences, hard)

    def hard_negative_pairs(self, id_a, id_b, a, b) -> list[tuple[int, int, str]]:
        members: dict[int, list[_Place]] = {}
        for p in self.places:
            if p.group is not None:
                members.setdefault(p.group, []).append(p)
        pairs = []
        for group in sorted(members):
            ps = members[group]
            kind = ps[0].group_kind
            for p in ps:
                if p.pid not in id_a:
                    continue
                for q in ps:
                    if q is not p and q.pid in id_b:
                        pairs.append((id_a[p.pid], id_b[q.pid], kind))
        # unrelated places of one name in one metro (not outlets of one chain)
        by_name: dict[tuple[int, str], list[_Place]] = {}
        for p in self.places:
            if p.chain is None:
                by_name.setdefault((p.metro, fold_accents(p.name).lower()), []).append(p)
        for key in sorted(by_name, key=lambda k: (k[0], k[1])):
            ps = by_name[key]
            if len(ps) < 2:
                continue
            for p in ps:
                if p.pid in id_a:
                    for q in ps:
                        if q is not p and q.pid in id_b and (p.group is None or p.group != q.group):
                            pairs.append((id_a[p.pid], id_b[q.pid], "same_name"))
        pairs.sort()
        return pairs


def bisect_right(seq: list[int], x: float) -> int:
    lo, hi = 0, len(seq)
    while lo < hi:
        mid = (lo + hi) // 2
        if x < seq[mid]:
            hi = mid
        else:
            lo = mid + 1
    return min(lo, len(seq) - 1)


def hash_seed(*parts) -> int:
    """A stable integer of the parts (str hash is salted per process)."""
    h = 1469598103934665603
    for part in parts:
        for ch in str(part).encode("utf-8") + b"\x1f":
            h = ((h ^ ch) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return h


# --- rendering: a guide's house style plus per-record noise ---------------------------------------------

class _Style(NamedTuple):
    city: tuple[float, float, float, float]  # postal city, metro name, neighbourhood, alias
    type_full: float  # "Street" rather than "St"
    type_dot: float  # "St." rather than "St" (when abbreviated)
    dir_full: float
    ordinal_words: float  # "First" for "1st"
    the_moved: float  # "Palm, The"
    the_dropped: float
    fold: float  # accents dropped (an ASCII-only guide) for the whole record
    phone_formats: tuple[tuple[str, float], ...]
    phone_missing: float
    zip_missing: float
    zip_plus4: float
    state_name: float
    website: float
    website_forms: tuple[tuple[str, float], ...]
    coords: float
    short_form: float
    city_suffix: float
    typo: float
    upper: float
    ampersand: float
    apostrophe: float
    suite_kept: float
    building: float
    number_typo: float
    address_missing: float


_STYLE_A = _Style(
    city=(0.78, 0.12, 0.06, 0.04), type_full=0.7, type_dot=0.3, dir_full=0.6, ordinal_words=0.25, the_moved=0.02,
    the_dropped=0.04, fold=0.05,
    phone_formats=(("paren", 0.75), ("dash", 0.15), ("intl", 0.1)), phone_missing=0.06, zip_missing=0.08,
    zip_plus4=0.05, state_name=0.1, website=0.7, website_forms=(("https_www", 0.5), ("http_bare", 0.2),
    ("www", 0.2), ("path", 0.1)), coords=0.6, short_form=0.04, city_suffix=0.015, typo=0.015, upper=0.01,
    ampersand=0.1, apostrophe=0.03, suite_kept=0.85, building=0.02, number_typo=0.01, address_missing=0.01)
_STYLE_B = _Style(
    city=(0.52, 0.12, 0.28, 0.08), type_full=0.2, type_dot=0.7, dir_full=0.15, ordinal_words=0.05, the_moved=0.6,
    the_dropped=0.15, fold=0.45,
    phone_formats=(("slash", 0.45), ("dots", 0.25), ("intl", 0.15), ("dash", 0.15)), phone_missing=0.14,
    zip_missing=0.35, zip_plus4=0.0, state_name=0.45, website=0.5, website_forms=(("bare", 0.4), ("www", 0.3),
    ("https_www_slash", 0.2), ("path", 0.1)), coords=0.4, short_form=0.12, city_suffix=0.07, typo=0.03, upper=0.03,
    ampersand=0.25, apostrophe=0.08, suite_kept=0.5, building=0.04, number_typo=0.025, address_missing=0.03)


def _pick(rng: random.Random, options: tuple[tuple[str, float], ...]) -> str:
    x = rng.random() * sum(w for _, w in options)
    for value, w in options:
        x -= w
        if x < 0:
            return value
    return options[-1][0]


def _alias(city: str, rng: random.Random) -> str:
    if city.startswith("St. "):
        return rng.choice(["Saint ", "St "]) + city[4:]
    if city.startswith("West "):
        return "W. " + city[5:]
    if city.startswith("Mount "):
        return "Mt. " + city[6:]
    if city == "New York":
        return rng.choice(["New York City", "NYC", "Manhattan"])
    folded = fold_accents(city)
    if folded != city:
        return folded
    return city


def city_label(p: _Place, style: _Style, rng: random.Random) -> tuple[str, str]:
    metro = _METROS[p.metro]
    neighbourhood, postal, municipality = metro[10][p.district][:3]
    choice = rng.choices(["postal", "metro", "neighbourhood", "alias"], style.city)[0]
    if choice == "postal":
        return postal, choice
    if choice == "metro":
        return (metro[0] if municipality == metro[0] or rng.random() < 0.7 else municipality), choice
    if choice == "neighbourhood":
        return neighbourhood, choice
    alias = rng.choice(metro[8]) if rng.random() < 0.4 else _alias(postal, rng)
    return alias, choice


def _typo(word: str, rng: random.Random) -> str:
    p = rng.randrange(1, len(word) - 1)
    k = rng.randrange(4)
    if k == 0:
        return word[:p] + word[p + 1] + word[p] + word[p + 2:]
    if k == 1:
        return word[:p] + word[p + 1:]
    if k == 2:
        return word[:p] + word[p] + word[p:]
    return word[:p] + rng.choice("aeiounrst") + word[p + 1:]


def render_name(p: _Place, style: _Style, rng: random.Random, city: str, ops: set[str]) -> str:
    name = p.name
    if rng.random() < style.short_form:
        options = [(long, short) for long, short in _SHORT if f" {long} " in f" {name} " or name.startswith(long + " ")]
        if options:
            long, short = rng.choice(options)
            changed = " ".join(f" {name} ".replace(f" {long} ", f" {short} " if short else " ").split())
            if changed and changed.lower() not in ("the", "le", "la", "el"):
                name = changed
                if long == "Delicatessen" and "'s " in name and rng.random() < 0.6:
                    name = name.replace("'s ", "s ", 1)  # "Arts Deli"
                ops.add("name_short_form")
    if name.startswith("The ") and len(name) > 8:
        x = rng.random()
        if x < style.the_moved:
            name = name[4:] + ", The"
            ops.add("name_the_moved")
        elif x < style.the_moved + style.the_dropped:
            name = name[4:]
            ops.add("name_the_dropped")
    if " & " in name and rng.random() < style.ampersand:
        name = name.replace(" & ", " and ")
        ops.add("name_ampersand")
    elif " and " in name and rng.random() < style.ampersand:
        name = name.replace(" and ", " & ")
        ops.add("name_ampersand")
    if "'" in name and rng.random() < style.apostrophe:
        name = name.replace("'", "")
        ops.add("name_apostrophe")
    if rng.random() < style.typo:
        words = name.split(" ")
        spots = [k for k, w in enumerate(words) if len(w) >= 5 and w.isalpha()]
        if spots:
            k = rng.choice(spots)
            words[k] = _typo(words[k], rng)
            name = " ".join(words)
            ops.add("name_typo")
    if rng.random() < style.city_suffix:
        label = city if rng.random() < 0.6 else _METROS[p.metro][10][p.district][0]
        name = rng.choice([f"{name} ({label})", f"{name} - {label}", f"{name}, {label}", f"{name} {label}"])
        ops.add("name_city_suffix")
    if rng.random() < style.upper:
        name = name.upper()
        ops.add("name_case")
    return name


def _house_number_typo(number: str, rng: random.Random) -> str:
    k = rng.randrange(5)
    if len(number) >= 2 and k == 0:
        i = rng.randrange(len(number) - 1)
        if number[i] != number[i + 1]:
            return number[:i] + number[i + 1] + number[i] + number[i + 2:]
    if len(number) >= 2 and k in (1, 2):
        i = rng.randrange(1, len(number))
        return number[:i] + rng.choice("bdeoqsl") + number[i + 1:]  # OCR / keyboard: "9b4"
    if k == 3 and len(number) >= 3:
        i = rng.randrange(len(number))
        return number[:i] + number[i + 1:]
    last = int(number[-1])
    return number[:-1] + str((last + rng.choice([-1, 1])) % 10)


def render_address(p: _Place, style: _Style, rng: random.Random, ops: set[str]) -> str:
    s = p.street
    country = _METROS[p.metro][3]
    number = p.number
    if rng.random() < style.number_typo:
        number = _house_number_typo(number, rng)
        ops.add("house_number_typo")
    name = s.name
    french = country == "CA" and name.startswith(("Rue", "Boulevard", "Avenue ", "Grande"))
    if country == "US" or (country == "CA" and not french):
        first = name.split(" ", 1)
        if first[0] in _ORDINAL_WORDS and rng.random() < style.ordinal_words:
            name = _ORDINAL_WORDS[first[0]] + (" " + first[1] if len(first) > 1 else "")
            ops.add("ordinal_words")
        if s.kind:
            if rng.random() < style.type_full:
                kind = _TYPE_LONG[s.kind]
                ops.add("type_full")
            else:
                kind = _TYPE_DOT[s.kind] if rng.random() < style.type_dot else s.kind
                ops.add("type_dot" if kind.endswith(".") else "type_short")
            name = f"{name} {kind}"

        def direction(d: str | None) -> str | None:
            if d is None:
                return None
            if rng.random() < style.dir_full:
                ops.add("dir_full")
                return _DIR_LONG[d]
            ops.add("dir_short")
            return d + "." if len(d) == 1 and rng.random() < 0.5 else d
        pre, post = direction(s.predir), direction(s.postdir)
        text = " ".join(x for x in (number, pre, name, post) if x)
    elif country == "CA":  # "1234 Rue Saint-Denis" / "1234, rue St-Denis"
        street = name
        if rng.random() < style.fold * 0.5:
            street = street.replace("Saint-", "St-").replace("Sainte-", "Ste-")
            ops.add("type_short")
        if rng.random() < 0.4:
            street = street[0].lower() + street[1:]
        text = f"{number}{', ' if rng.random() < 0.3 else ' '}{street}"
    elif country == "FR":
        street = name
        if rng.random() < 0.4:
            street = street.replace("Boulevard", "Bd").replace("Avenue", "Av.")
            ops.add("type_short")
        text = f"{number}{', ' if rng.random() < 0.3 else ' '}{street if rng.random() < 0.6 else street[0].lower() + street[1:]}"
    elif country == "GB":
        street = name
        if rng.random() > style.type_full:
            street = street.replace(" Street", " St").replace(" Road", " Rd").replace(" Lane", " Ln")
            ops.add("type_short")
        text = f"{number} {street}"
    elif country == "DE":
        street = name
        r = rng.random()
        if r < 0.3:
            street = street.replace("straße", "str.")
            ops.add("type_short")
        elif r < 0.6:
            street = street.replace("ß", "ss")
        text = f"{street} {number}"
    else:  # ES
        street = name
        if rng.random() < 0.4:
            street = street.replace("Carrer de ", "C/ ").replace("Carrer del ", "C/ ").replace("Carrer d'", "C/ ")
            ops.add("type_short")
        text = f"{street}{', ' if rng.random() < 0.5 else ' '}{number}"
    if p.suite and rng.random() < style.suite_kept:
        suite = p.suite
        if suite.isdigit():
            suite = rng.choice([f"Suite {suite}", f"Ste {suite}", f"Ste. {suite}", f"#{suite}", f"Unit {suite}"])
        text = f"{text}{rng.choice([', ', ' '])}{suite}"
        ops.add("suite:" + suite)
    elif p.suite:
        ops.add("suite:none")
    if rng.random() < style.building and not p.suite:
        suite = rng.choice([f"Suite {rng.randint(1, 4)}{rng.randint(0, 2)}{rng.randint(0, 9)}", "2nd Floor",
                            "Ground Floor", f"#{rng.randint(1, 30)}"])
        text = f"{text}, {suite}"
        ops.add("suite:" + suite)
    if rng.random() < (style.building * 10 if p.building else style.building * 0.25):
        building = p.building or f"{rng.choice(_SURNAME)} {rng.choice(['Building', 'Plaza', 'Center', 'Arcade'])}"
        text = f"{building}, {text}"
        ops.add("address_building")
    return text


def _format_phone(digits: str, country: str, form: str) -> str:
    if country in ("US", "CA"):
        a, b, c = digits[:3], digits[3:6], digits[6:]
        return {"paren": f"({a}) {b}-{c}", "dash": f"{a}-{b}-{c}", "slash": f"{a}/{b}-{c}",
                "dots": f"{a}.{b}.{c}", "intl": f"+1 {a} {b} {c}"}[form]
    code = {"FR": "33", "GB": "44", "ES": "34", "DE": "49"}[country]
    if form == "intl":
        if country == "FR":
            return f"+33 {digits[0]} " + " ".join(digits[k:k + 2] for k in range(1, 9, 2))
        return f"+{code} {digits[:2]} {digits[2:]}"
    if country == "FR":
        national = "0" + digits
        return " ".join(national[k:k + 2] for k in range(0, 10, 2)) if form != "dots" else ".".join(
            national[k:k + 2] for k in range(0, 10, 2))
    if country == "ES":
        return f"{digits[:3]} {digits[3:6]} {digits[6:]}"
    return f"0{digits[:2]} {digits[2:6]} {digits[6:]}" if country == "GB" else f"0{digits[:2]} {digits[2:]}"


def _website(p: _Place, style: _Style, rng: random.Random) -> str | None:
    if not p.domain or rng.random() >= style.website:
        return None
    form = _pick(rng, style.website_forms)
    path = p.path or ""
    if form == "https_www":
        return f"https://www.{p.domain}{path}"
    if form == "https_www_slash":
        return f"https://www.{p.domain}{path or '/'}"
    if form == "http_bare":
        return f"http://{p.domain}{path}"
    if form == "www":
        return f"www.{p.domain}{path}"
    if form == "path":
        return f"https://{p.domain}{path or rng.choice(['/home', '/menu', '/en/', '/index.html'])}"
    return p.domain + path


def render(p: _Place, style: _Style, rng: random.Random) -> tuple[dict, set[str]]:
    ops: set[str] = set()
    metro = _METROS[p.metro]
    country = metro[3]
    city, how = city_label(p, style, rng)
    ops.add("city:" + how)
    name = render_name(p, style, rng, city, ops)
    address = render_address(p, style, rng, ops)
    if rng.random() < style.address_missing:
        address = ""
        ops.add("address_missing")
    state = metro[1]
    if state and rng.random() < style.state_name:
        state = metro[2]
    elif not state:
        state = "" if rng.random() < 0.6 else metro[2]
    zip_ = p.zip
    if rng.random() < style.zip_missing:
        zip_ = ""
    elif country == "CA" and rng.random() < 0.3:
        zip_ = zip_.replace(" ", "")
    elif country == "US" and rng.random() < style.zip_plus4:
        zip_ = f"{zip_}-{rng.randint(1000, 9999)}"
    phone = ""
    if p.phone and rng.random() >= style.phone_missing:
        phone = _format_phone(p.phone, country, _pick(rng, style.phone_formats))
    lat = lng = ""
    if rng.random() < style.coords:
        if rng.random() < 0.04:  # geocoded to the postal code's centroid
            jitter_m = rng.uniform(400, 1500)
        else:
            jitter_m = abs(rng.gauss(0, 20))
        angle = rng.uniform(0, 2 * math.pi)
        lat = round(p.lat + jitter_m * math.cos(angle) / 111_320, 6)
        lng = round(p.lng + jitter_m * math.sin(angle) / (111_320 * math.cos(math.radians(p.lat))), 6)
    if rng.random() < style.fold:
        name, address, city, state = (fold_accents(x) for x in (name, address, city, state))
        ops.add("fold")
    row = {"id": 0, "name": name, "address1": address, "city": city, "state": state, "zip": zip_,
           "country": country, "phone": phone, "website": _website(p, style, rng) or "",
           "lat": lat, "lng": lng}
    return row, ops


def pair_divergences(a: dict, ops_a: set[str], b: dict, ops_b: set[str]) -> list[str]:
    """What differs between the two records of one place (kinds of DIVERGENCES)."""
    out = set()
    both = ops_a | ops_b
    ca, cb = a["city"], b["city"]
    if ca.lower() != cb.lower():
        out.add("city_accents" if fold_accents(ca).lower() == fold_accents(cb).lower() else "city_label")
    if a["name"] != b["name"]:
        for kind in ("name_city_suffix", "name_short_form", "name_the_moved", "name_the_dropped", "name_ampersand",
                     "name_apostrophe", "name_case", "name_typo"):
            if kind in ops_a or kind in ops_b:
                out.add(kind)
        accented = fold_accents(a["name"]) != a["name"] or fold_accents(b["name"]) != b["name"]
        if accented and ("fold" in ops_a) != ("fold" in ops_b):
            out.add("name_accents")
    if a["state"] and b["state"] and a["state"] != b["state"]:
        out.add("state_name_vs_code")
    if a["phone"] and b["phone"] and a["phone"] != b["phone"]:
        out.add("phone_format")
    if bool(a["phone"]) != bool(b["phone"]):
        out.add("phone_missing")
    if a["address1"] and b["address1"]:
        if (("type_full" in ops_a) != ("type_full" in ops_b) or ("dir_full" in ops_a) != ("dir_full" in ops_b)
                or ("type_short" in both) or (("type_dot" in ops_a) != ("type_dot" in ops_b))):
            if a["address1"].split(",")[0] != b["address1"].split(",")[0]:
                out.add("address_abbreviation")
        if ("ordinal_words" in ops_a) != ("ordinal_words" in ops_b):
            out.add("address_ordinal")
        suites_a = {o for o in ops_a if o.startswith("suite:")}
        suites_b = {o for o in ops_b if o.startswith("suite:")}
        if suites_a != suites_b:
            out.add("suite")
        if ("address_building" in ops_a) != ("address_building" in ops_b):
            out.add("address_building")
        if "house_number_typo" in both:
            out.add("house_number_typo")
    if bool(a["address1"]) != bool(b["address1"]):
        out.add("address_missing")
    if bool(a["zip"]) != bool(b["zip"]):
        out.add("zip_missing")
    elif a["zip"] and a["zip"] != b["zip"]:
        out.add("zip_format")
    if bool(a["website"]) != bool(b["website"]):
        out.add("website_missing")
    elif a["website"] and a["website"] != b["website"]:
        out.add("website_variant")
    if a["lat"] != "" and b["lat"] != "":
        out.add("coordinates_jitter")
    elif (a["lat"] != "") != (b["lat"] != ""):
        out.add("coordinates_one_side")
    return [k for k in DIVERGENCES if k in out]


def generate(n: int = 100_000, seed: int = 7) -> Guides:
    """Two guides of about n records together (see the module docstring)."""
    return _Gen(n, seed).run()


def write(guides: Guides, out: str) -> None:
    os.makedirs(out, exist_ok=True)
    for name, rows in (("guide_a.csv", guides.a), ("guide_b.csv", guides.b)):
        with open(os.path.join(out, name), "w", newline="", encoding="utf-8") as fh:
            writer = csv.DictWriter(fh, COLUMNS)
            writer.writeheader()
            writer.writerows(rows)
    with open(os.path.join(out, "truth.csv"), "w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(["id_a", "id_b", "divergences"])
        for id_a, id_b in guides.truth:
            writer.writerow([id_a, id_b, " ".join(guides.divergences[id_b])])
    with open(os.path.join(out, "hard_negatives.csv"), "w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(["id_a", "id_b", "kind"])
        writer.writerows(guides.hard_negatives)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--out", required=True, help="directory for guide_a.csv, guide_b.csv, truth.csv, "
                                                     "hard_negatives.csv")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    guides = generate(args.n, args.seed)
    write(guides, args.out)
    print(json.dumps({"a": len(guides.a), "b": len(guides.b), "truth": len(guides.truth),
                      "hard_negatives": len(guides.hard_negatives),
                      "seconds": round(time.perf_counter() - started, 2)}), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

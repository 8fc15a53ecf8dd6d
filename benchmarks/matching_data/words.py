"""The words place names are made of, the chain brands, and the vocabulary of what guides add to
a name or an address: qualifiers, buildings and malls, cross-street and landmark notes."""

from __future__ import annotations

FIRST = ("Joe Mario Maria Tony Tommy Sal Vinny Frankie Rosa Lucia Carmine Arturo Art Eddie Mike Nick Sam Lou "
          "Katz Barney Gus Jimmy Johnny Rocco Angelo Marco Paolo Pietro Bobby Lola Ruby Stella Nora Ivy Hattie "
          "Minnie Mabel Elsie Otto Hugo Felix Oscar Pablo Diego Rosita Mei Ling Kenji Yuki Hana").split()
SURNAME = ("Carmine Peter Luger Keens Gallagher Sparks Murphy Kelly Walsh Nolan Brennan Romano Russo Esposito "
            "Bianchi Rossi Ferrara Marino Costa Greco Conti Levy Katz Stein Schwartz Weiss Kaplan Novak Dubois "
            "Martin Bernard Moreau Laurent Lefebvre Garcia Lopez Morales Ortiz Ramos Tanaka Sato Kim Park Lee "
            "Nguyen Tran Chen Wong Singh Patel Shah Hughes Fletcher Barlow Whitman Cooper Hayes Porter").split()
ITALIAN = ("Lupa Babbo Scarpetta Carbone Locanda Fiorella Sorella Bottega Perla Rosa Lucciola Vespa Amaro Basta "
            "Cena Dolce Fiore Forno Gemma Lido Mare Nonna Piccolo Primo Stella Terra Tavola Vino Zucca Felice "
            "Bella Buona Fratelli Sotto Sopra Quattro Trecolori Aldo Rubirosa Lilia Misi Marea Via Carota "
            "Maialino Del Posto Rezdora Ci Siamo").split()
FRENCH = ("Lapin Coq Rouge Bouchon Cocotte Papillon Soleil Maison Petit Lune Étoile Pomme Jardin Balthazar "
           "Ciel Mistral Provence Marché Bistrot Rivière Château Côte Brûlée Crème Sœur Fleur Cœur Mouton Chèvre "
           "Café Océan Verte Bleue Noisette Épicerie Frère Amélie Hélène Dame Renée").split()
SPANISH = ("Cielo Sol Luna Verde Casa Fuego Mar Agave Nopal Jalisco Oaxaca Cantina Mañana Corazón Jalapeño "
            "Palapa Tierra Paloma Rosita Señor Esquina Toro Bravo Cuatro Azul Caliente Pueblo Chiquito Niño").split()
ASIAN = ("Sakura Kin Hana Momo Kaiju Yuzu Ume Tora Lotus Jade Bamboo Dragon Tiger Phoenix Lucky Golden Saigon "
          "Hanoi Bangkok Chiang Mai Seoul Tokyo Osaka Kyoto Sichuan Hunan Canton Szechuan Mandalay Kabul "
          "Bombay Delhi Kerala Dosa Tandoor Nori Ippudo Totto Mochi Bao Dim Sum").split()
ADJ = ("Blue Red Golden Silver Old Little Grand Green White Black Wild Lazy Happy Hidden Crooked Rusty Salty "
        "Smoky Spotted Drunken Hungry Jolly Dirty Velvet Iron Copper Brass Wooden Gilded Humble Honest "
        "Clever Lucky Secret Sunny Rolling Painted Urban Royal Noble Hollow Twisted").split()
NOUN = ("Pig Rooster Fox Bear Owl Crow Anchor Lantern Kettle Acorn Oyster Lobster Spoon Fork Ladle Barrel "
         "Goat Lamb Hen Duck Swan Stag Hare Boar Otter Whale Pelican Compass Table Larder Pantry Cellar Hearth "
         "Garden Orchard Harvest Tide Wharf Pier Mill Bell Crown Star Moon Sun Cup Saucer Bowl Plate Knot").split()
CUISINE_TYPE = ["Kitchen", "Grill", "Bistro", "Tavern", "Eatery", "Brasserie", "Cantina", "Diner", "Café",
                 "Steakhouse", "Oyster Bar", "Noodle House", "Pizzeria", "Trattoria", "Taqueria", "Smokehouse"]
THINGS = ("Modern Art|Natural History|the City|Science|Illusions|Ice Cream|Broken Relationships|Jazz|the Moving "
           "Image|Contemporary Art|Design|Fine Arts|Arts and Design|Photography|Immigration|Folk Art").split("|")

# (brand, domain, category, weight, share of outlets listed with the brand's central phone)
CHAINS = [
    ("Starbucks", "starbucks.com", "cafe", 30, 0.0), ("Dunkin'", "dunkindonuts.com", "cafe", 10, 0.0),
    ("Peet's Coffee", "peets.com", "cafe", 5, 0.0), ("Blue Bottle Coffee", "bluebottlecoffee.com", "cafe", 4, 0.3),
    ("Chipotle Mexican Grill", "chipotle.com", "restaurant", 10, 0.0),
    ("Shake Shack", "shakeshack.com", "restaurant", 6, 0.0), ("Sweetgreen", "sweetgreen.com", "restaurant", 6, 0.5),
    ("Panera Bread", "panerabread.com", "restaurant", 5, 0.2), ("Pret A Manger", "pret.com", "restaurant", 5, 0.6),
    ("Le Pain Quotidien", "lepainquotidien.com", "restaurant", 4, 0.3),
    ("Five Guys", "fiveguys.com", "restaurant", 5, 0.0), ("McDonald's", "mcdonalds.com", "restaurant", 12, 0.0),
    ("Subway", "subway.com", "restaurant", 10, 0.0), ("Joe's Pizza", "joespizzanyc.com", "restaurant", 2, 0.0),
    ("In-N-Out Burger", "in-n-out.com", "restaurant", 3, 0.4), ("Tim Hortons", "timhortons.ca", "cafe", 6, 0.0),
    ("Paul", "paul-international.com", "cafe", 3, 0.0), ("Le Labo", "lelabofragrances.com", "shop", 2, 0.5),
    ("Apple Store", "apple.com", "shop", 2, 0.7), ("Walgreens", "walgreens.com", "shop", 6, 0.0),
    ("CVS Pharmacy", "cvs.com", "shop", 6, 0.0), ("Whole Foods Market", "wholefoodsmarket.com", "shop", 3, 0.0),
    ("Trader Joe's", "traderjoes.com", "shop", 3, 0.0), ("Ace Hotel", "acehotel.com", "hotel", 1, 0.0),
    ("Kimpton", "kimptonhotels.com", "hotel", 2, 0.4), ("Marriott", "marriott.com", "hotel", 3, 0.6),
    ("Hampton Inn", "hilton.com", "hotel", 3, 0.7), ("Holiday Inn Express", "ihg.com", "hotel", 3, 0.7),
    ("Candlewood Suites", "ihg.com", "hotel", 2, 0.8), ("Courtyard by Marriott", "marriott.com", "hotel", 2, 0.6),
    ("Best Western", "bestwestern.com", "hotel", 2, 0.6), ("Residence Inn", "marriott.com", "hotel", 1, 0.6),
    ("La Quinta Inn & Suites", "wyndhamhotels.com", "hotel", 1, 0.7), ("Comfort Inn", "choicehotels.com", "hotel", 2, 0.7),
]
CHAIN_CUM: list[int] = []
for _c in CHAINS:
    CHAIN_CUM.append((CHAIN_CUM[-1] if CHAIN_CUM else 0) + _c[3])

# short forms: long word -> what a guide writes for it ("" drops the word)
SHORT = [("Delicatessen", "Deli"), ("Restaurant", ""), ("Company", "Co."), ("Brothers", "Bros."),
         ("Saint", "St."), ("Mount", "Mt."), ("Barbecue", "BBQ"), ("Pizzeria", "Pizza"), ("Steakhouse", "Steak House"),
         ("Coffee Roasters", "Coffee"), ("Trattoria", ""), ("Osteria", ""), ("Taqueria", ""), ("Brasserie", ""),
         ("Kitchen", ""), ("Bakery", "Bakeshop"), ("Oyster Bar", "Oysters"), ("Noodle House", "Noodles"),
         ("Museum of", "Museum"), ("Hotel", ""), ("and", "&")]

TLD = {"US": ".com", "CA": ".ca", "FR": ".fr", "GB": ".co.uk", "ES": ".es", "DE": ".de"}

# what one guide adds after a name and the other leaves out ("Bones" / "Bones Restaurant")
QUALIFIERS = {
    "restaurant": ["Restaurant", "Bistro", "Grill", "Bar & Grill", "Cafe", "Kitchen", "Gourmet Chinese Cuisine",
                   "Real BBQ", "Italian Restaurant", "Sushi Bar", "Wine Bar", "Steakhouse", "Tea Room", "Brasserie",
                   "Restaurant & Bar", "Eatery", "Trattoria", "Cocina", "Oyster Bar", "Grill Room", "Dining Room",
                   "Ristorante", "Mexican Grill", "Noodle Bar", "Restaurant-Bis-Cafe"],
    "cafe": ["Cafe", "Coffee", "Coffee Shop", "Bakery & Cafe", "Espresso Bar", "Tea House"],
    "bar": ["Bar", "Lounge", "Pub", "Tavern", "Cocktail Bar", "Bar & Lounge", "Taproom"],
    "shop": ["Shop", "Store", "Boutique", "Gallery", "Market"],
    "hotel": ["Hotel", "Inn", "Hotel & Spa", "& Suites", "Resort", "Suites"],
    "attraction": ["Museum", "Gallery", "Center", "Garden"],
}
# leading words one guide keeps and the other drops ("Restaurant Katsu" / "Katsu")
PREFIXES = {"restaurant": ["Restaurant", "Ristorante", "Trattoria", "Cafe", "Chez"], "cafe": ["Cafe", "Caffe"],
            "bar": ["Bar"], "shop": ["Boutique"], "hotel": ["Hotel", "The"], "attraction": ["The"]}
# one word, two spellings ("Second Street Grille" / "Grill")
SPELLINGS = [("Grill", "Grille"), ("Theater", "Theatre"), ("Center", "Centre"), ("Pizzeria", "Pizza"),
             ("Barbecue", "Bar-B-Q"), ("BBQ", "Barbeque"), ("Cafe", "Caffe"), ("Café", "Cafe"), ("Delicatessen", "Deli"),
             ("Tavern", "Taverne"), ("Steakhouse", "Steak House"), ("Bar & Grill", "Bar and Grill"),
             ("Donuts", "Doughnuts"), ("Bagels", "Bagel"), ("Noodles", "Noodle"), ("Oyster", "Oysters"),
             ("Company", "Co."), ("Brewing", "Brewery"), ("Market", "Mkt."), ("Saint", "St.")]
# what a place is "at" ("Fenix at the Argyle"): a hotel or building
HOST_WORDS = ["Hotel", "Building", "Plaza", "Tower", "Center", "Inn", "House", "Club"]

# buildings, malls and complexes written in an address ("Lenox Square Mall", "Kintetsu Building")
BUILDING_FORMS = ["{x} Square Mall", "{x} Shopping Center", "{x} House Condominium", "{x} Plaza", "{x} Building",
                  "{x} Tower", "{x} Center", "{x} Mall", "{x} Galleria", "{x} Commons", "{x} Marketplace",
                  "{x} Square Shopping Center", "{x} Battle Shopping Center", "{x} Shopping Mall", "{x} Arcade",
                  "{x} Towers", "One {x} Place", "{x} Pavilion", "{x} Hotel", "The {x}", "{x} Centre",
                  "{x} Office Park", "{x} Station", "{x} Market Hall", "{x} Terminal", "Japan Center  {x} Building"]
BUILDING_WORDS = ("Lenox Rio Kintetsu Peachtree Phipps Galleria Rockefeller Prudential Citicorp Chrysler Embarcadero "
                  "Ferry Union Pacific Biltmore Argyle Wrigley Hancock Seagram Woolworth Grand Central Harbor Crown "
                  "Fashion Town Country Oak Park Liberty Plaza Westfield Bayside Riverfront Landmark Heritage").split()
# anchors a mall note points at ("near Neiman Marcus")
ANCHORS = ["Neiman Marcus", "Macy's", "Nordstrom", "Saks", "Bloomingdale's", "the food court", "the main entrance",
           "the cinema", "Sears", "the fountain", "the lobby", "Barneys"]
# landmarks an address note points at ("at the East River")
LANDMARKS = ["the East River", "the river", "the waterfront", "the pier", "the park", "City Hall", "the Ferry Building",
             "the convention center", "Union Station", "the courthouse", "the university", "the beach",
             "the harbor", "the marina", "the ballpark", "the public library", "the square", "the train station",
             "the art museum", "the cathedral", "the bridge", "the boardwalk", "the Strip", "the capitol"]
# avenues a numbered cross street runs between in a grid ("between park ave. s and broadway")
GRID_AVENUES = ["5th", "6th", "7th", "8th", "9th", "10th", "Madison", "Park", "Lexington", "3rd", "2nd", "1st",
                "Amsterdam", "Columbus", "Broadway", "Park Ave. S", "York", "West End", "Riverside"]

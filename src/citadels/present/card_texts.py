"""Every card's power in plain words, by edition, with that edition's rulings.

Our own wording, written from the project's rules (RULES.md, CARDS.md, docs/rules.md), never
copied from a rulebook. A table entry maps an edition id (or ``"*"``: every edition that has
the card) to its text; the texts are marked ``N_`` and translated when shown, in the edition's
context first (``NC_("dezh", …)`` marks a text that names a card the edition's rulebook names its
own way, see ``names.EDITION_NAMES``).
"""

from __future__ import annotations

from citadels.present.i18n import N_, NC_

#: The `basic` ruling of every character with an automatic part (B-1).
INCOME_AUTOMATIC = N_(
    "In this edition the income and extras come by themselves the moment the character is "
    "called: there is no choice of when."
)

#: Character powers: id -> edition (or "*") -> text.
CHARACTER_POWERS: dict[str, dict[str, str]] = {
    "assassin": {
        "*": N_(
            "Name another character. Whoever holds it loses that whole turn: no gathering, "
            "no income, no power, no building."
        ),
    },
    "thief": {
        "*": N_(
            "Name a character. When its holder is revealed, all his gold passes to you at "
            "once, before he gathers."
        ),
    },
    "magician": {
        "*": N_(
            "Once in your turn, choose one: swap your whole hand for another player's whole "
            "hand, or put any number of your cards under the deck and draw that many."
        ),
    },
    "king": {
        "basic": N_(
            "You take the crown as soon as you are called, so you choose first next round. "
            "You are paid 1 gold per noble district in your city the moment you are called."
        ),
        "*": N_(
            "You take the crown as soon as you are called, so you choose first next round. "
            "Once in your turn, take 1 gold per noble district in your city."
        ),
    },
    "bishop": {
        "basic": N_(
            "You are paid 1 gold per religious district the moment you are called. While you "
            "are alive this round, the Warlord cannot destroy your districts."
        ),
        "2016": N_(
            "Once in your turn, take 1 gold per religious district. For the rest of the "
            "round, no rank-8 character (Warlord, Diplomat, Marshal) can target your districts."
        ),
        "classic": N_(
            "Once in your turn, take 1 gold per religious district. For the rest of the "
            "round, the Warlord cannot destroy your districts and the Diplomat cannot take them."
        ),
        "*": N_(
            "Once in your turn, take 1 gold per religious district. For the rest of the "
            "round, the Warlord cannot destroy your districts."
        ),
    },
    "merchant": {
        "basic": N_(
            "The moment you are called you are paid 1 gold per trade district, plus 1 more gold."
        ),
        "*": N_(
            "Once in your turn, take 1 gold per trade district. Whatever you chose when "
            "gathering, you also get 1 extra gold."
        ),
    },
    "architect": {
        "basic": N_(
            "The moment you are called you receive 2 extra district cards. You may build up "
            "to 3 districts this turn."
        ),
        "*": N_(
            "After gathering, whatever you took, draw 2 extra district cards. You may build up "
            "to 3 districts this turn."
        ),
    },
    "warlord": {
        "basic": N_(
            "You are paid 1 gold per military district the moment you are called. Once you "
            "have gathered, you may destroy one district by paying its cost minus 1."
        ),
        "classic": N_(
            "Once in your turn, take 1 gold per military district. At the very end of your "
            "turn, after building, you may destroy one district by paying its cost minus 1."
        ),
        "*": N_(
            "Once in your turn, take 1 gold per military district. At any moment of your "
            "turn you may destroy one district by paying its cost minus 1."
        ),
    },
    "witch": {
        "*": N_(
            "Gather, then name a character to bewitch; your turn stops there, without "
            "building. When that character is called, its holder only gathers, and you play "
            "the rest of that turn as the character, with your own hand, gold and city."
        ),
    },
    "tax_collector": {
        "classic": N_(
            "Whenever another player builds in his turn, he pays you 1 gold at the end of that "
            "turn, if he has any left."
        ),
        "2016": N_(
            "As long as this character is in the game, every player who builds a district "
            "puts 1 gold (if he has any) on the Tax Collector's token right away. In your turn "
            "you take all the gold on the token."
        ),
    },
    "wizard": {
        "*": N_(
            "Look at another player's hand and take one card from it: keep it, or pay for it "
            "and build it at once, beyond your building limit. This turn you may build a "
            "district whose name is already in your city."
        ),
    },
    "emperor": {
        "classic": N_(
            "When called, you must move the crown to another player (not yourself, not its "
            "current holder). The new holder gives you 1 gold or 1 card from his hand, as he "
            "prefers. Once in your turn, take 1 gold per noble district."
        ),
        "2016": N_(
            "In your turn you must move the crown to another player (not yourself, not its "
            "current holder), then take 1 of his gold or 1 random card from his hand, as you "
            "prefer. Once in your turn, take 1 gold per noble district."
        ),
    },
    "abbot": {
        "classic": N_(
            "Once in your turn, take 1 gold per religious district. The player with the most "
            "gold gives you 1 gold, unless that top amount is shared or is your own."
        ),
        "2016": N_(
            "Once in your turn, take 1 gold or 1 card per religious district, splitting it as "
            "you announce. If you are not the richest player, the richest gives you 1 gold "
            "(you pick among those tied)."
        ),
    },
    "alchemist": {
        "*": N_(
            "At the end of your turn, every gold you paid to build districts this turn comes "
            "back to you. You still cannot pay more than you have."
        ),
    },
    "navigator": {
        "*": N_(
            "After gathering, take either 4 extra gold or 4 extra cards. You cannot build "
            "anything this turn."
        ),
    },
    "diplomat": {
        "classic": N_(
            "Once in your turn, take 1 gold per military district. At the end of your turn you "
            "may trade one district of your city for one in another player's city, paying him "
            "the difference if yours is the cheaper one."
        ),
        "2016": N_(
            "Once in your turn, take 1 gold per military district. Once in your turn you may "
            "trade one district of your city for one in another player's city, paying him the "
            "difference if yours is the cheaper one."
        ),
    },
    "queen": {
        "*": N_("If you sit right beside the player who holds the rank-4 character, take 3 gold."),
    },
    "artist": {
        "*": N_(
            "Put 1 of your own gold on each of up to 2 of your districts: each is then worth 1 "
            "more, for scoring and for anyone who destroys, trades or takes it."
        ),
    },
    "magistrate": {
        "2016": N_(
            "Place 3 face-down warrants on 3 different characters, one of them signed. When the "
            "player with the signed warrant pays for his first build of the turn, you may show "
            "it: the district goes into your city for free, and he gets his gold back."
        ),
    },
    "spy": {
        "2016": N_(
            "Choose another player and a district type, then look at his hand. For each card "
            "of that type you take 1 of his gold (while he has any) and draw 1 card."
        ),
    },
    "blackmailer": {
        "2016": N_(
            "Place 2 face-down threats on 2 different characters, one of them flowered. A "
            "threatened player, after gathering, may pay you half his gold to lift the threat. "
            "If he refuses you may reveal it: a flowered threat takes all his gold."
        ),
    },
    "seer": {
        "2016": N_(
            "Take 1 random card from every other player who has one, then give each of them 1 "
            "card of your choice. You may build up to 2 districts this turn."
        ),
    },
    "patrician": {
        "2016": N_(
            "You take the crown as soon as you are called. Once in your turn, draw 1 card per "
            "noble district in your city."
        ),
    },
    "cardinal": {
        "2016": N_(
            "Once in your turn, draw 1 card per religious district. If you lack gold for a "
            "district, you may take exactly the missing gold from one player, give him 1 card "
            "per gold, and must then build it."
        ),
    },
    "trader": {
        "2016": N_(
            "Once in your turn, take 1 gold per trade district. Trade districts you build do "
            "not count against your building limit."
        ),
    },
    "scholar": {
        "2016": N_(
            "Draw 7 cards, keep 1 and shuffle the other 6 back into the deck. You may build up "
            "to 2 districts this turn."
        ),
    },
    "marshal": {
        "2016": N_(
            "Once in your turn, take 1 gold per military district. You may take a district "
            "costing 3 or less from another player's city into yours, paying him its cost."
        ),
    },
}

#: Character rulings: id -> edition (or "*") -> rulings (several per edition).
CHARACTER_RULINGS: dict[str, dict[str, tuple[str, ...]]] = {
    "assassin": {
        "basic": (
            N_("You may name any rank from 2 to 8."),
            N_("The victim stays silent when called; who held it shows only at the round's end."),
        ),
        "dezh": (
            N_("The victim turns the card face up when it is called, and the turn ends there."),
        ),
        "classic": (
            N_("The victim stays silent when called; who held it shows only at the round's end."),
            N_("With a Hospital, the victim may still gather when called, and nothing more."),
        ),
        "2016": (
            N_("The victim stays silent when called; who held it shows only at the round's end."),
        ),
    },
    "thief": {
        "basic": (
            N_("You may only name ranks 3 to 8, and never the murdered character."),
            N_("If nobody holds the character you named, nothing happens."),
        ),
        "dezh": (
            N_("Never rank 1, never the murdered character."),
            N_("If nobody holds the character you named, nothing happens."),
        ),
        "*": (
            N_("Never rank 1, never the murdered or the bewitched character."),
            N_("If nobody holds the character you named, nothing happens."),
        ),
    },
    "magician": {
        "*": (N_("Swapping is allowed even when your own hand is empty."),),
    },
    "king": {
        "basic": (
            N_("Murdered, you still take the crown at the end of the round."),
            N_("The King is never among the characters put aside face up."),
        ),
        "dezh": (
            N_("Murdered, you still take the crown at the end of the round."),
            N_("The King is never among the characters put aside face up."),
        ),
        "*": (
            N_("Murdered, you still take the crown at the end of the round."),
            N_("Bewitched, you still take the crown yourself."),
            N_("No rank-4 character is ever put aside face up."),
        ),
    },
    "bishop": {
        "basic": (N_("A murdered Bishop protects nothing."),),
        # The edition's own names (seed 001's Bishop): looked up in its context first.
        "dezh": (NC_("dezh", "A murdered Bishop protects nothing."),),
        "*": (
            N_("A murdered Bishop protects nothing."),
            N_("If the Witch bewitches the Bishop, her city is protected instead of his."),
        ),
    },
    "merchant": {
        "dezh": (N_("The extra gold comes with your gather action, whichever you chose."),),
    },
    "architect": {
        "dezh": (N_("The 2 extra cards come with your gather action, whichever you chose."),),
    },
    "warlord": {
        "basic": (
            N_("A district of cost 1 is destroyed for free."),
            N_("Your own city is allowed; a completed city is not."),
            N_("Not the Bishop's districts, unless the Bishop was murdered."),
        ),
        "dezh": (
            N_("A district of cost 1 is destroyed for free."),
            N_("Your own city is allowed; a completed city is not."),
            NC_("dezh", "Never the Keep, nor a living Bishop's districts."),
        ),
        "classic": (
            N_("Destroying ends your turn: it is the last thing you do."),
            N_("A district of cost 1 is destroyed for free; a Great Wall adds 1 to the price."),
            N_("Your own city is allowed; a completed city is not."),
            N_("Never the Keep, nor a living Bishop's districts."),
        ),
        "2016": (
            N_("A district of cost 1 is destroyed for free; a Great Wall adds 1 to the price."),
            N_("Your own city is allowed; a completed city is not."),
            N_("Never the Keep, nor a living Bishop's districts."),
        ),
    },
    "witch": {
        "classic": (
            N_("If nobody holds the character you named, you get no turn back."),
            N_("The Thief may not name the Witch nor the bewitched character."),
        ),
        "2016": (
            N_("If nobody holds the character you named, you get no turn back."),
            N_("The bewitched player's unique districts do not work for you."),
            N_("The Thief and the Blackmailer may not name the Witch nor her target."),
        ),
    },
    "tax_collector": {
        "classic": (
            N_("A rank-1 player who built before you were revealed pays when you are revealed."),
            N_("If the Tax Collector is murdered or nobody chose him, nobody pays this round."),
            N_("The Alchemist never gets tax back."),
        ),
        "2016": (
            N_("It applies even when nobody chose him or he was murdered."),
            N_(
                "Every district built is taxed, free ones too; the token keeps its gold between "
                "rounds."
            ),
            N_("Only the Tax Collector himself is exempt, not his holder's other character."),
        ),
    },
    "wizard": {
        "*": (N_("Building the card at once still counts as a build for tax and the Magistrate."),),
    },
    "emperor": {
        "classic": (
            N_("Murdered, he moves nothing: the crown stays where it is."),
            N_("No rank-4 character is ever put aside face up."),
        ),
        "2016": (
            N_("Murdered, he still moves the crown at the end of the round but takes nothing."),
            N_("Not used with 2 players."),
        ),
    },
    "abbot": {
        "2016": (N_("Nothing is taken if you are tied for the most gold."),),
    },
    "alchemist": {
        "*": (N_("Tax, the Smithy and other payments are not given back."),),
    },
    "navigator": {
        "*": (N_("No building of any kind, not even outside the limit."),),
    },
    "diplomat": {
        "classic": (
            N_("Not the Keep, not a living Bishop's city, not from a completed city."),
            N_("A Great Wall around the district you take adds 1 to what you pay."),
            N_("With the Diplomat in play, the Graveyard leaves the deck."),
        ),
        "2016": (
            N_("The Keep may be neither taken nor given."),
            N_("Not a living Bishop's city, not from a completed city, no duplicate names."),
            N_("A Great Wall around the district you take adds 1 to what you pay."),
        ),
    },
    "queen": {
        "classic": (
            N_("The rank-4 character is the King or the Emperor; the crown does not matter."),
            N_("If it was murdered, you are paid when it is revealed at the end of the round."),
            N_("Only with 5 players or more."),
        ),
        "2016": (
            N_("What counts is who holds the rank-4 character, not the crown."),
            N_("If it was murdered, you are paid when it is revealed at the end of the round."),
            N_("Only with 5 players or more."),
        ),
    },
    "artist": {
        "*": (N_("A district can carry only one such gold, ever; the gold is no longer yours."),),
    },
    "magistrate": {
        "2016": (
            N_("Only the signed warrant confiscates, and only the first paid build of a turn."),
            N_("The builder has still used that build; you pay the tax on the district."),
            N_("Warrants are removed at the end of the round."),
        ),
    },
    "spy": {
        "2016": (N_("The types are the four colours and unique."),),
    },
    "blackmailer": {
        "2016": (
            N_("Never rank 1, nor the murdered or bewitched character."),
            N_("Half is rounded down, so a player with 1 gold pays nothing."),
            N_("Threats are removed at the end of the round."),
        ),
    },
    "patrician": {
        "2016": (N_("Murdered, you still take the crown at the end of the round."),),
    },
    "cardinal": {
        "2016": (N_("The player you take gold from cannot refuse."),),
    },
    "marshal": {
        "2016": (
            N_("Not from a completed city, not the Keep, not a living Bishop's city."),
            N_("Not a district whose name you already have; a Great Wall adds 1 to the price."),
        ),
    },
}

#: Purple (unique) district powers: id -> edition (or "*") -> text.
DISTRICT_POWERS: dict[str, dict[str, str]] = {
    "haunted_city": {
        "*": N_(
            "At the final count you may score it as any one of the other colours instead of "
            "purple. It never counts for income."
        ),
    },
    "haunted_quarter": {
        "2016": N_(
            "At the final count it counts as the one district type of your choice. It never "
            "counts for income."
        ),
    },
    "keep": {
        "dezh": N_("The Warlord can never destroy it."),
        "classic": N_("The Warlord can never destroy it, and the Diplomat can never take it."),
        "2016": N_("No rank-8 character (Warlord, Diplomat, Marshal) can ever target it."),
    },
    "observatory": {
        "dezh": N_("When you gather by drawing, you may draw 3 cards instead of 2; keep 1."),
        "*": N_("When you gather by drawing, draw 3 cards instead of 2 and keep 1."),
    },
    "graveyard": {
        "*": N_(
            "When the Warlord destroys a district, you may pay 1 gold to take the destroyed "
            "card into your hand."
        ),
    },
    "laboratory": {
        "2016": N_("Once in each of your turns, discard a card from your hand to take 2 gold."),
        "*": N_("Once in each of your turns, discard a card from your hand to take 1 gold."),
    },
    "smithy": {
        "*": N_("Once in each of your turns, pay 2 gold to draw 3 cards."),
    },
    "dragon_gate": {
        "classic": N_("Scores 2 points on top of its cost at the end."),
        "2016": N_("Scores 2 points on top of its cost at the end."),
    },
    "university": {
        "classic": N_("Scores 2 points on top of its cost at the end."),
    },
    "library": {
        "2016": N_("When you gather by drawing, keep every card you drew."),
        "classic": N_("When you gather by drawing, keep both cards you drew."),
    },
    "great_wall": {
        "classic": N_(
            "The Warlord and the Diplomat pay 1 more gold to destroy or take any of your other "
            "districts."
        ),
        "2016": N_("Rank-8 characters pay 1 more gold to act on any of your other districts."),
    },
    "school_of_magic": {
        "classic": N_(
            "When you take your character's income, it counts as a district of that "
            "character's colour. It scores as purple."
        ),
        "2016": N_("Whenever a power pays you per district of a type, it counts as that type."),
    },
    "lighthouse": {
        "classic": N_(
            "When you build it, you may look through the deck, take any 1 card into your hand, "
            "then shuffle the deck."
        ),
    },
    "armory": {
        "classic": N_(
            "In your turn you may destroy the Armory to destroy one district in another "
            "player's city."
        ),
        "2016": N_(
            "In your turn you may destroy the Armory to destroy any one district, in any city."
        ),
    },
    "museum": {
        "*": N_(
            "Once in each of your turns, you may put a card from your hand face down under "
            "the Museum. Each card there scores 1 point at the end."
        ),
    },
    "imperial_treasury": {
        "*": N_("At the end, score 1 point for each gold you own."),
    },
    "map_room": {
        "*": N_("At the end, score 1 point for each card in your hand."),
    },
    "wishing_well": {
        "classic": N_("At the end, score 1 point for each other purple district in your city."),
        "2016": N_(
            "At the end, score 1 point for each unique district in your city, this one included."
        ),
    },
    "quarry": {
        "classic": N_(
            "You may build a district whose name is already in your city, but only one such "
            "pair at a time."
        ),
        "2016": N_("You may build districts whose names are already in your city."),
    },
    "poor_house": {
        "*": N_("At the end of each of your turns, if you have no gold, take 1 gold."),
    },
    "bell_tower": {
        "classic": N_(
            "When you build it, you may announce that the game now ends when a city reaches 7 "
            "districts instead of 8."
        ),
    },
    "factory": {
        "classic": N_("Every other purple district costs you 1 gold less to build."),
        "2016": N_("Every other unique district costs you 1 gold less to build."),
    },
    "park": {
        "*": N_("At the end of each of your turns, if your hand is empty, draw 2 cards."),
    },
    "hospital": {
        "classic": N_(
            "If your character is murdered, you still reveal it when it is called and gather, "
            "but do nothing else that turn."
        ),
    },
    "throne_room": {
        "classic": N_("Each time the crown passes to a different player, take 1 gold."),
    },
    "ball_room": {
        "classic": N_(
            "While you hold the crown, every player who is called must thank you politely or "
            "lose the turn. This table manner is not enforced by the software."
        ),
    },
    "basilica": {
        "2016": N_("At the end, score 1 point for each district in your city with an odd cost."),
    },
    "capitol": {
        "2016": N_("At the end, score 3 points if your city has at least 3 districts of one type."),
    },
    "framework": {
        "2016": N_("Instead of paying for a district, you may destroy the Framework to build it."),
    },
    "gold_mine": {
        "2016": N_("When you gather gold, take 1 more."),
    },
    "ivory_tower": {
        "2016": N_("At the end, score 5 points if this is the only unique district in your city."),
    },
    "monument": {
        "2016": N_(
            "You may build it only while your city has 4 districts or fewer. It counts as 2 "
            "districts towards completing your city."
        ),
    },
    "necropolis": {
        "2016": N_(
            "Instead of paying for it, you may destroy one district of your own city to build it."
        ),
    },
    "secret_vault": {
        "2016": N_(
            "It can never be built. If it is in your hand at the end, show it for 3 points."
        ),
    },
    "stables": {
        "2016": N_("Building it does not count against your building limit."),
    },
    "statue": {
        "2016": N_("At the end, score 5 points if you hold the crown."),
    },
    "theater": {
        "2016": N_(
            "Each round, once everyone has chosen, you may swap your character card for the "
            "one of a player you pick, without seeing it first."
        ),
    },
    "thieves_den": {
        "2016": N_("You may pay any part of its cost with cards from your hand, 1 card per gold."),
    },
}

#: District rulings: id -> edition (or "*") -> rulings.
DISTRICT_RULINGS: dict[str, dict[str, tuple[str, ...]]] = {
    "haunted_city": {
        "classic": (
            N_("Built in the final round, it scores as purple only."),
            N_("The game picks the colour that scores best for you."),
        ),
        "dezh": (
            N_("It may change colour even if built in the final round."),
            N_("The game picks the colour that scores best for you."),
        ),
    },
    "haunted_quarter": {
        "2016": (
            N_("Counted as another type, it no longer counts as unique."),
            N_("The game picks the type that scores best for you."),
        ),
    },
    "keep": {
        "2016": (N_("The Armory may still destroy it."),),
    },
    "graveyard": {
        "classic": (
            N_("Not when you are that Warlord yourself."),
            N_("It leaves the deck when the Diplomat is in play."),
        ),
        "dezh": (N_("It works even when you are that Warlord yourself."),),
    },
    "observatory": {
        "classic": (N_("With the Library too, draw 3 and keep 2."),),
        "2016": (N_("With the Library too, draw 3 and keep all 3."),),
    },
    "library": {
        "classic": (N_("With the Observatory too, draw 3 and keep 2."),),
        "2016": (N_("With the Observatory too, draw 3 and keep all 3."),),
    },
    "dragon_gate": {
        "*": (N_("The 2 points are not part of its cost for a tie-break."),),
    },
    "university": {
        "classic": (N_("The 2 points are not part of its cost for a tie-break."),),
    },
    "great_wall": {
        "*": (N_("It does not make itself dearer."),),
    },
    "armory": {
        "*": (
            N_("Both the Armory and its target are discarded; nobody pays anything."),
            N_("It is not a rank-8 power: the Bishop, the Keep and the Great Wall do not stop it."),
            N_("Never in a completed city."),
        ),
    },
    "museum": {
        "*": (N_("Cards under the Museum are not in your hand and move with it."),),
    },
    "quarry": {
        "*": (N_("It works for building only, not for exchanges or confiscations."),),
    },
    "bell_tower": {
        "classic": (
            N_(
                "Players who already have 7 districts when it is announced count as first to "
                "complete."
            ),
            N_("If it leaves the city, 8 districts are needed again."),
        ),
    },
    "factory": {
        "*": (N_("It never changes the price to destroy or exchange a district."),),
    },
    "hospital": {
        "classic": (N_("A murdered King still takes the crown at the end of the round."),),
    },
    "ball_room": {
        "classic": (N_("It is left out of the default decks."),),
    },
    "framework": {
        "2016": (N_("Built that way, the district is taxed but cannot be confiscated."),),
    },
    "necropolis": {
        "2016": (N_("Built that way, it is taxed but cannot be confiscated."),),
    },
    "monument": {
        "2016": (N_("It scores as 1 district, and counts as 1 for the Basilica and the Capitol."),),
    },
    "secret_vault": {
        "2016": (N_("In hand it is an ordinary card: it can be discarded, swapped or taken."),),
    },
    "theater": {
        "2016": (
            N_(
                "With 2 or 3 players you choose which of your 2 to give and take one of theirs "
                "at random."
            ),
        ),
    },
    "thieves_den": {
        "2016": (N_("The cards paid are discarded; a confiscation returns the gold only."),),
    },
    "imperial_treasury": {
        "*": (N_("Gold on districts or on the Tax Collector's token does not count."),),
    },
    "map_room": {
        "2016": (N_("A Secret Vault in your hand counts too."),),
    },
}

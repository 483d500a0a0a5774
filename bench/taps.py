"""Count the taps a practised scorekeeper needs to enter one round.

``python bench/taps.py --photo PHOTO`` counts a rack by photo instead, on a player's own page
of a Rummikub round: "Photograph the rack", "use the photo", a tap per tile marked ? and
"Send my part"; it prints the rack read, the seconds from the shutter to the chips, and last
``N taps``.

``python bench/taps.py ROUND.json`` starts the real app on a temporary SQLite file, creates a
match of the document's game with its players, opens its scoreboard in Chromium at 390×844 and
enters the round along the fastest path, tapping only what a person sees. For Rummy 17:
"Enter game", the bonus cards, who went out, the last card, then the walking picker (melds on
its card keys, a set through "All colours" where that is fewer taps, then the counts of each
hand, player by player), whose last step saves. For a
game whose leftovers are counted (Rummikub, Rummy-O, Manipulation): the ending questions and
each player's points typed (``bench/taps_counted.py``). Every click and every key press counts
as one, until the saved round shows on the scoreboard. The scores shown there must equal
``companion score`` on the same document (the rules core's ``score_document``); the last line
printed is ``N taps``, and the exit status is 1 when the scores differ. ``--path picker``
counts the older Rummy 17 way instead (the per-field picker: "+ Run", "+ Set", "Pick" for the
hand and the last card, each with "Add"); ``--path picker-counts`` the same with every hand
typed as its two counts; ``--path walk-no-hold`` the walker with every joker as ★ then its card
instead of the card held down.

``--phones`` (Rummy 17, "own hands") then enters the same round on a new match with a
phone per player besides the scorekeeper's, each its own browser context at 390×844 on the same
app. The scorekeeper taps "Everyone enters their own" on the scoreboard, then the bonus cards,
who went out and the last card; each player opens their link (one tap: the QR code scanned and
the link tapped) and enters their own melds on their own page's walker, with the same per-player
code as the one phone (``walk_melds``: "All colours" lights what that page's form lacks), then
"No cards left" (whoever went out) or the two count chips, which send the part; the scorekeeper
saves once every part shows in the form. The phones are driven one after another, so the wall
time is computed at ``--tap-seconds`` (default 1) a tap: one phone, the one-phone taps; the
phones, the scorekeeper's taps before the parts open, plus the most of the scorekeeper's taps
meanwhile and each player's, plus 1 to save, plus the delay measured from the last part's send
until the scorekeeper's form showed it (parts.js asks every 1.5 s). It prints the taps per phone,
the busiest phone, both wall times and, last, their ratio (``ratio R``); the scoreboard's
scores are checked as above, exit status 1 when they differ.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from werkzeug.serving import WSGIRequestHandler, make_server  # noqa: E402

from bench.taps_counted import enter_counted_round  # noqa: E402
from companion.domain import get_game, score_document  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
PHONE = {"width": 390, "height": 844}
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]
HOLD_MS = 700  # a press this long on a card key is its joker (walk.js holds for 450 ms)
CHIPS = 13  # the walker's count chips show 0–12; "13+" turns them into 13–25; more is typed


@dataclass
class Counter:
    """Every tap and key press on the page, counted."""

    page: Any
    taps: int = 0
    log: list[str] = field(default_factory=list)
    at: float = 0.0  # when the last tap began (time.perf_counter)
    read_ms: int = 0  # a photo's round trip: sent, read by the server, answered (photo_part)

    def tap(self, locator: Any, what: str) -> None:
        self.at = time.perf_counter()
        locator.click()
        self.taps += 1
        self.log.append(what)

    def open(self, url: str, what: str) -> None:
        """A link opened on this phone: the QR code scanned and its link tapped, one tap."""
        self.at = time.perf_counter()
        self.page.goto(url)
        self.taps += 1
        self.log.append(what)

    def type(self, locator: Any, text: str) -> None:
        self.tap(locator, f"field for {text}")
        for key in text:
            self.page.keyboard.press(key)
            self.taps += 1
            self.log.append(f"key {key}")


# --- The document read as taps -------------------------------------------------------------


def _parse(token: str) -> tuple[bool, str | None, int | None]:
    """A card in Rummy 17 notation: (joker?, colour, value) — ``R12``, ``*B``, ``*Y7``."""
    m = re.fullmatch(r"(\*)?([A-Z])?(\d+)?", token.strip().upper())
    if not m:
        raise SystemExit(f"{token!r} is not a Rummy 17 card")
    return bool(m[1]), m[2], int(m[3]) if m[3] else None


def _is_set(meld: list[str]) -> bool:
    values = {_parse(c)[2] for c in meld if not _parse(c)[0]}
    return len(values) == 1


def meld_taps(meld: list[str]) -> list[str]:
    """The walking picker's taps for one meld: ``k:R4`` is the card key R4, ``*`` the joker
    key (R17-9, D17-3, D17-6). A run is its first and last card, a joker (★ then the card it
    stands for) tapped between them; a set is its cards, a joker as ★ then its own colour."""
    cards = [_parse(c) for c in meld]
    naturals = [(c, v) for j, c, v in cards if not j]
    jokers = [(c, v) for j, c, v in cards if j]
    if _is_set(meld):
        value = naturals[0][1]
        out = [f"k:{c}{value}" for c, _ in naturals]
        for colour, _ in jokers:  # D17-3: a joker stands for its own colour
            out += ["*", f"k:{colour}{value}"] if colour else ["*"]
        return out
    colour = naturals[0][0]
    values = sorted(v for _, v in naturals if v is not None)
    out = [f"k:{colour}{values[0]}"]
    taken = set(values)
    for _, stand in jokers:
        if stand is None:  # the gap it fills, else the end it extends (unambiguous: D17-6)
            gaps = [v for v in range(values[0], values[-1] + 1) if v not in taken]
            stand = gaps[0] if gaps else (values[-1] + 1 if values[-1] < 17 else values[0] - 1)
        taken.add(stand)
        out += ["*", f"k:{colour}{stand}"]
    return out + ([f"k:{colour}{values[-1]}"] if len(values) > 1 else [])


def all_colours_taps(meld: list[str], lit: list[str], hold: bool = True) -> list[str] | None:
    """A set's taps with the walker's "All colours" key: the key, one of the set's
    cards, each joker (held, or ★ then its card), then every colour the key lit that the set
    lacks tapped off and any it left out tapped on. ``lit``: the colours of the value still in
    the box (not lying elsewhere in the round). None for a run or a joker with no colour."""
    if not _is_set(meld):
        return None
    cards = [_parse(c) for c in meld]
    value = next(v for j, _, v in cards if not j)
    naturals = [str(c) for j, c, _ in cards if not j]
    jokers = [c for j, c, _ in cards if j]
    if None in jokers:
        return None
    on = [*lit, *(c for c in naturals[:1] if c not in lit)]  # the card tapped is always in
    out = ["all", f"k:{naturals[0]}{value}"]
    for colour in jokers:
        out += gestures(["*", f"k:{colour}{value}"], hold)
    out += [f"k:{c}{value}" for c in on if c not in naturals and c not in jokers]
    return out + [f"k:{c}{value}" for c in naturals if c not in on]


def picker_meld_taps(meld: list[str]) -> list[str]:
    """The older picker's taps for one meld ("+ Run", "+ Set"): ``c:R``, ``v:3``, ``*``."""
    cards = [_parse(c) for c in meld]
    naturals = [(c, v) for j, c, v in cards if not j]
    jokers = [(c, v) for j, c, v in cards if j]
    if _is_set(meld):
        value = naturals[0][1]
        out = [f"v:{value}"] + [f"c:{c}" for c, _ in naturals]
        for colour, _ in jokers:  # D17-3: a joker stands for its own colour
            out += ["*", f"c:{colour}"] if colour else ["*"]
        return out
    colour = naturals[0][0]
    values = sorted(v for _, v in naturals if v is not None)
    if len(jokers) > 1:
        raise SystemExit(f"{meld}: the older picker takes one joker per run")
    out = [f"c:{colour}", f"v:{values[0]}"]
    if jokers:
        stand = jokers[0][1]
        if stand is None:  # the gap it fills, else the end it extends (unambiguous: D17-6)
            gaps = [v for v in range(values[0], values[-1] + 1) if v not in values]
            stand = gaps[0] if gaps else (values[-1] + 1 if values[-1] < 17 else values[0] - 1)
        out += ["*", f"v:{stand}"]
    return out + [f"v:{values[-1]}"]


def hand_counts(hand: Any) -> tuple[int, int]:
    """What a hand counts for (R17-16): cards 1–9 and cards 10–17."""
    if isinstance(hand, dict):
        return int(hand.get("low", 0)), int(hand.get("high", 0))
    values = [_parse(c)[2] or 0 for c in hand]
    return sum(v <= 9 for v in values), sum(v > 9 for v in values)


# --- Driving the page ------------------------------------------------------------------------


def gestures(taps: list[str], hold: bool = True) -> list[str]:
    """``meld_taps`` as touches: with ``hold``, ★ then a card is that card held down
    (``h:R5``, the joker standing for R5: one touch)."""
    out: list[str] = []
    for tap in taps:
        if hold and out and out[-1] == "*" and tap.startswith("k:"):
            out[-1] = "h:" + tap[2:]
        else:
            out.append(tap)
    return out


def _walker_tap(count: Counter, tap: str) -> None:
    walker = count.page.locator("#walker")
    if tap == "*":
        count.tap(walker.get_by_role("button", name="joker"), "★")
        return
    m = re.fullmatch(r"([kh]):([A-Z])(\d+)", tap)
    assert m, tap
    key = walker.locator(f"[data-card][data-c={m[2]}][data-v='{m[3]}']")
    if m[1] == "h":  # held down past the walker's HOLD (450 ms): one touch
        hold_key(count.page, key)
        count.taps += 1
        count.log.append(f"hold {m[2]}{m[3]}")
    else:
        count.tap(key, m[2] + m[3])


def _all_colours(count: Counter, meld: list[str], codes: list[str], hold: bool) -> None:
    """A set through "All colours" and one of its cards, then the keys of its value put right
    as they show: each joker held (or ★ then it), a colour lit that the set lacks tapped off,
    one it needs tapped on."""
    walker = count.page.locator("#walker")
    cards = [_parse(c) for c in meld]
    value = next(v for j, _, v in cards if not j)
    naturals = [c for j, c, _ in cards if not j]
    jokers = [c for j, c, _ in cards if j]
    count.tap(walker.get_by_role("button", name="All colours"), "all colours")
    _walker_tap(count, f"k:{naturals[0]}{value}")
    for colour in codes:
        key = walker.locator(f"[data-card][data-c={colour}][data-v='{value}']")
        pressed = key.get_attribute("aria-pressed") == "true"
        joker = "jk" in (key.get_attribute("class") or "").split()
        if colour in jokers and not joker:
            for tap in gestures(["*", f"k:{colour}{value}"], hold):
                _walker_tap(count, tap)
        elif colour in naturals and (joker or not pressed):
            _walker_tap(count, f"k:{colour}{value}")
        elif colour not in naturals and colour not in jokers and pressed:
            _walker_tap(count, f"k:{colour}{value}")  # lit, but not in this set: off


def _some_seventeen(page: Any, doc: dict[str, Any]) -> str:
    """``{"seventeen": true}``: the table saw which 17 it was; any one the round does not show
    elsewhere doubles alike (R17-15a), so the bench taps the first such quick key."""
    shown = {
        str(card).upper()
        for player in doc["players"]
        for cards in [*player.get("melds", []), player.get("hand", [])]
        if isinstance(cards, list)
        for card in cards
    }
    keys = [k.get_attribute("data-last") for k in page.locator("#ending [data-last]").all()]
    return next(key for key in keys if key not in shown)


def enter_game(count: Counter) -> None:
    """On the scoreboard: "Enter game N", the round form."""
    count.tap(count.page.get_by_role("link", name=re.compile(r"^Enter game")), "enter round")
    count.page.wait_for_load_state()


def wait_saved(page: Any) -> None:
    """Until the saved round's scoreboard says so."""
    page.wait_for_url(re.compile(r"/m/[^/]+$"))
    page.get_by_text(re.compile(r"Game \d+ saved")).wait_for()


def _bonus_cards(count: Counter, doc: dict[str, Any]) -> None:
    """The round's bonus cards, each tapped by its name."""
    names = {c["id"]: c["name"] for c in get_game(doc["game"]).descriptor()["bonus_cards"]["cards"]}
    for card in doc["bonus_cards"]:
        label = count.page.locator("#bonus label").filter(has_text=re.compile("^" + names[card]))
        count.tap(label, card)


def enter_ending(count: Counter, doc: dict[str, Any], exact_last: bool) -> dict[str, int]:
    """On the round form: the bonus cards, who went out (or nobody) and the last card. Returns
    the cards the form holds after it (the last card, when it was named)."""
    page = count.page
    _bonus_cards(count, doc)
    out = doc.get("went_out")
    ending = page.locator("#ending")
    entered: dict[str, int] = {}
    if out is None:
        count.tap(ending.get_by_role("radio", name="The draw pile ran out"), "nobody out")
        return entered
    count.tap(ending.get_by_role("radio", name=out, exact=True), f"{out} went out")
    last = doc.get("last_discard")
    if isinstance(last, dict):  # the short form: only whether it was a 17 is known
        last = _some_seventeen(page, doc) if last.get("seventeen") else None
    # A one-tap last card is a chip named by its colour ("black 17"): by its card
    quick = ending.locator(f'[data-last="{last}"]') if last else None
    if quick is not None and quick.count():  # a 17 doubles: one tap names it (R17-15a)
        count.tap(quick, f"last {last}")
        entered[str(last).upper()] = 1
    elif exact_last and last:  # Pick, its colour and its value: it adds itself
        entered[last.upper()] = 1
        _, colour, value = _parse(last)
        count.tap(ending.get_by_role("button", name="Pick"), "pick last")
        picker = page.locator("#picker")
        count.tap(picker.locator(f".colours [data-c={colour}]"), f"c:{colour}")
        count.tap(picker.locator(f"[data-v='{value}']"), f"v:{value}")
    else:  # only the doubling matters: "Not a 17" ({"seventeen": false}, one tap)
        count.tap(ending.locator("[data-last-short=not17]"), "not a 17")
    return entered


def walk_melds(
    count: Counter, game: str, player: dict[str, Any], entered: dict[str, int], hold: bool = True
) -> None:
    """One player's melds on the open walker's card keys, runs first (they add themselves): a
    set through "All colours" where that is fewer taps, else card by card, *Meld done* only
    where a set still open would take the next meld's first card. ``entered``: how often each
    card lies in the form so far, which is what "All colours" leaves out (the whole table on
    the scorekeeper's phone, the player's own cards on their own page); the melds are added."""
    walker = count.page.locator("#walker")
    deck = get_game(game).describe().cards
    codes = [c.code for c in deck.colours]

    def lit(value: int) -> list[str]:
        """The colours "All colours" lights for this value: those still in the box."""
        shown = [entered.get(deck.text(c, value), 0) for c in codes]
        return [c for c, n in zip(codes, shown, strict=True) if not deck.copies or n < deck.copies]

    melds = sorted(player.get("melds", []), key=_is_set)  # runs first: they add themselves
    open_set: int | None = None  # the value of a set still open (it ends at another value)
    for meld in melds:
        taps = meld_taps(meld)
        first = next(_parse(t[2:])[2] for t in taps if t.startswith("k:"))
        via_all = all_colours_taps(meld, lit(first), hold)
        if via_all is not None and len(via_all) < len(gestures(taps, hold)):
            _all_colours(count, meld, codes, hold)  # the key ends a set still open
            open_set = first  # a set "All colours" made stays open, full or not
        else:
            if open_set is not None and first == open_set:  # its card would join that set
                count.tap(walker.get_by_role("button", name="Meld done"), "meld done")
            for tap in gestures(taps, hold):
                _walker_tap(count, tap)
            full = len(meld) >= len(codes)  # a set of every colour adds itself
            open_set = first if _is_set(meld) and not full else None
        for card in meld:
            joker, colour, value = _parse(card)
            if not joker and colour and value:
                text = deck.text(colour, value)
                entered[text] = entered.get(text, 0) + 1


def count_chips(count: Counter, low: int, high: int) -> None:
    """A hand's two counts on the walker's chips ("13+" first for 13–25); the second moves
    the walk on (to the next player, or past the last: the form is sent)."""
    walker = count.page.locator("#walker")
    for k, n in enumerate((low, high)):
        row = walker.locator(f"[data-count='{k}']")
        if n >= CHIPS:  # the chips of 13–25 first
            count.tap(row.locator("[data-more]"), "13+")
        count.tap(row.get_by_role("button", name=re.compile(f": {n}$")), f"count {n}")


def _type_counts(count: Counter, box: Any, low: int, high: int) -> None:
    """A hand of more than the chips hold: its two counts typed in the player's fields."""
    for label, n in (("Cards 1–9", low), ("Cards 10–17", high)):
        count.type(box.get_by_role("spinbutton", name=label), str(n))


def enter_round(page: Any, doc: dict[str, Any], exact_last: bool = False, hold: bool = True) -> int:
    """From the scoreboard, enter ``doc`` along the fastest path; the taps it took.

    A joker is its card held down (one touch), or ★ then the card without ``hold``. A last
    card that is not a 17 is one tap, "Not a 17", unless ``exact_last`` asks for the
    card itself (Pick, colour, value)."""
    count = Counter(page)
    enter_game(count)
    # the cards in the form so far: "All colours" leaves them out
    entered = enter_ending(count, doc, exact_last)
    out = doc.get("went_out")
    typed: list[int] = []  # the players whose counts go beyond the chips
    walker = page.locator("#walker")
    # The walk opens when asked, never by itself (a player who types closes nothing).
    count.tap(page.get_by_role("button", name=re.compile("^Tap in melds and hands")), "walk")
    players = doc["players"]
    walk = list(range(len(players)))  # the walk goes round in seat order, the same every round
    saved = False
    for pos, i in enumerate(walk):
        player = players[i]
        final = pos == len(walk) - 1
        walk_melds(count, doc["game"], player, entered, hold)
        low, high = hand_counts(player.get("hand", []))
        if player["name"] == out or max(low, high) >= 2 * CHIPS:
            if max(low, high) >= 2 * CHIPS:
                typed.append(i)
            if not final:
                count.tap(walker.locator("#walk-next"), "next")
            elif typed:  # numbers to type first: close the walk
                count.tap(walker.get_by_role("button", name="Close"), "close")
            else:  # the last step's button saves the round
                count.tap(walker.locator("#walk-next"), "save")
                saved = True
            continue
        count_chips(count, low, high)
        saved = saved or (final and not typed)  # the last player's counts save the round
    if not saved:
        page.wait_for_function("!document.getElementById('walker').open")
        for i in typed:
            box = page.locator("fieldset.player").nth(i)
            _type_counts(count, box, *hand_counts(players[i].get("hand", [])))
        count.tap(page.get_by_role("button", name=re.compile("^Save game")), "save")
    wait_saved(page)
    return count.taps


def enter_round_picker(page: Any, doc: dict[str, Any], *, counts: bool = False) -> int:
    """The older path (main before the walking picker): a picker per meld, hand and card;
    with ``counts``, every hand typed as its two counts instead."""
    count = Counter(page)
    enter_game(count)
    _bonus_cards(count, doc)
    out = doc.get("went_out")
    ending = page.locator("#ending")
    picker = page.locator("#picker")

    def pick(opener: Any, taps: list[str]) -> None:
        count.tap(opener, "open picker")
        for tap in taps:
            if tap == "*":
                count.tap(picker.locator("[data-joker]"), "★")
            elif tap.startswith("c:"):
                count.tap(picker.locator(f".colours [data-c={tap[2:]}]"), tap)
            elif tap.startswith("m:"):
                count.tap(picker.get_by_role("button", name=tap[2:], exact=True), tap)
            else:
                count.tap(picker.locator(f"[data-v='{tap[2:]}']"), tap)
        if picker.is_visible():  # once the last card, too, needed "Add"
            count.tap(picker.get_by_role("button", name="Add"), "add")

    if out is None:
        count.tap(ending.get_by_role("radio", name="The draw pile ran out"), "nobody out")
    else:
        count.tap(ending.get_by_role("radio", name=out, exact=True), f"{out} went out")
        _, c, v = _parse(doc["last_discard"])
        pick(ending.get_by_role("button", name="Pick"), [f"c:{c}", f"v:{v}"])
    walker = page.locator("#walker")
    if walker.is_visible():  # the walker opened by itself once the ending was given
        count.tap(walker.get_by_role("button", name="Close"), "close the walker")
    for i, player in enumerate(doc["players"]):
        box = page.locator("fieldset.player").nth(i)
        for meld in player.get("melds", []):
            taps = picker_meld_taps(meld)
            if _is_set(meld):  # the old set: value, colours; ★ then the joker's colour
                pick(box.get_by_role("button", name="+ Set"), taps)
            else:  # the old run: colour, first, last, then ★ and the joker's value
                plain = [t for t in taps if t != "*"]
                if len(plain) == len(taps):
                    pick(box.get_by_role("button", name="+ Run"), taps)
                else:
                    colour, first, stand, last = plain
                    pick(box.get_by_role("button", name="+ Run"), [colour, first, last, "*", stand])
        hand = player.get("hand", [])
        if hand and counts:
            hand = dict(zip(("low", "high"), hand_counts(hand), strict=True))
        if isinstance(hand, dict):
            _type_counts(count, box, *hand_counts(hand))
        elif hand:
            taps = []
            for c in hand:
                _, colour, value = _parse(c)
                taps += [f"c:{colour}", f"v:{value}"]
            pick(box.get_by_role("button", name="+ Pick"), taps)
    count.tap(page.get_by_role("button", name=re.compile("^Save game")), "save")
    wait_saved(page)
    return count.taps


# --- Own hands: a phone per player ----------------------------------------------


def open_parts(count: Counter) -> list[str]:
    """From the scoreboard: "Everyone enters their own" (the round form comes with a QR code
    and a link per seat); each seat's link, in seat order."""
    page = count.page
    count.tap(page.locator("#parts-open-board"), "everyone enters their own")
    page.wait_for_load_state()
    shares = page.locator("#parts[data-news] [data-part-seat] [data-share]")
    shares.first.wait_for(state="attached")
    return [str(b.get_attribute("data-share")) for b in shares.all()]


def enter_part(count: Counter, game: str, player: dict[str, Any], hold: bool = True) -> None:
    """On the player's own page (``/p/<token>``): "Tap in my melds and hand" opens the walker
    for them alone, then their melds (``walk_melds``; "All colours" lights what this page's
    form lacks), then their hand: "No cards left" when it is empty (whoever went out), else
    its two count chips. Either last tap sends the part; more than 25 of a kind is typed,
    then "Send my part". Returns once the tap that sends it is made (``count.at``: when)."""
    page = count.page
    walker = page.locator("#walker")
    count.tap(page.locator("#walk-open"), "tap in my melds and hand")
    walker.wait_for()
    walk_melds(count, game, player, {}, hold)
    low, high = hand_counts(player.get("hand", []))
    if low == high == 0:
        count.tap(walker.locator("[data-none]"), "no cards left")
    elif max(low, high) >= 2 * CHIPS:
        count.tap(walker.get_by_role("button", name="Close"), "close")
        _type_counts(count, page.locator("fieldset.player"), low, high)
        count.tap(page.locator("#save-button"), "send my part")
    else:
        count_chips(count, low, high)


#: Is a player's part in the scorekeeper's form: as many melds as sent, and both counts?
_FILLED = """([seat, melds, low, high]) => {
  const value = (f) => (document.getElementById(`players-${seat}-${f}`) || {}).value || "";
  const lines = value("melds").split("\\n").filter((l) => l.trim()).length;
  return lines === melds && value("low") === String(low) && value("high") === String(high);
}"""


def wait_filled(page: Any, seat: int, player: dict[str, Any]) -> None:
    """Until the scorekeeper's round form shows the part of ``seat`` (static/js/parts.js asks
    the server every 1.5 s and fills it in). On a page with the fake clock, its time is moved
    on a poll at a time meanwhile (``until_shown``)."""
    melds = len(player.get("melds", []))
    args = [seat, melds, *hand_counts(player.get("hand", []))]
    if on_fake_clock(page):
        until_shown(page, lambda: bool(page.evaluate(_FILLED, args)), POLL_MS)
    else:
        page.wait_for_function(_FILLED, arg=args, polling=20)


#: How often the scorekeeper's form asks for the parts (static/js/parts.js), ms.
POLL_MS = 1500


def on_fake_clock(page: Any) -> bool:
    """Does the page run on Playwright's fake clock, paused (the tests: ``page.fake_clock``)?
    Then its timers fire only as the clock is moved on."""
    return bool(getattr(page, "fake_clock", False))


def until_shown(page: Any, shown: Callable[[], bool], step_ms: int, tries: int = 40) -> None:
    """On a fake clock: move the page's time on ``step_ms`` at a time (its timers fire) until
    ``shown()``, giving the answers it asked for some real time to arrive."""
    for _ in range(tries):
        if shown():
            return
        page.clock.run_for(step_ms)
        page.wait_for_timeout(100)
    raise AssertionError(f"not shown after {tries} steps of {step_ms} ms")


def hold_key(page: Any, key: Any) -> None:
    """A card key held down past walk.js's HOLD (450 ms), one touch: in real time, or on a
    page with the fake clock, the clock moved on while the key is down."""
    if not on_fake_clock(page):
        key.click(delay=HOLD_MS)
        return
    key.scroll_into_view_if_needed()
    box = key.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.clock.run_for(HOLD_MS)
    page.mouse.up()


def board_totals(page: Any) -> list[int]:
    """The scoreboard's totals row, in seat order, as a person reads it."""
    cells = page.locator("tfoot td[data-player]").all_inner_texts()
    return [int(c.strip().replace("−", "-").replace("+", "")) for c in cells]


# --- The app and the browser ------------------------------------------------------------------


class _Quiet(WSGIRequestHandler):
    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        """No access log."""


@contextmanager
def serve(folder: Path) -> Iterator[tuple[Any, str]]:
    """The real app on a temporary SQLite file, in a thread: (Flask app, base address)."""
    from companion.web.app import create_app

    app = create_app(
        {
            "INSTANCE_PATH": str(folder / "instance"),
            "DATABASE_URL": f"sqlite:///{folder / 'companion.sqlite3'}",
            "SECRET_KEY": "taps bench",
        }
    )
    httpd = make_server("127.0.0.1", 0, app, threaded=True, request_handler=_Quiet)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield app, f"http://127.0.0.1:{httpd.server_port}"
    finally:
        httpd.shutdown()
        app.extensions["companion_db"].dispose()


def new_match(app: Any, doc: dict[str, Any]) -> str:
    """A match of the document's players (the first deals); its edit token."""
    from companion.adapters import store
    from companion.adapters.db import get_session

    names = [p["name"] for p in doc["players"]]
    with app.app_context():
        match = store.create_match(
            get_session(), game=doc["game"], players=names, first_dealer=names[0], games=None
        )
        return str(match.edit_token)


def measure(page: Any, app: Any, base: str, doc: dict[str, Any], path: str = "walk") -> int:
    """Enter ``doc`` on a new match from its scoreboard; the taps. Raises on other scores."""
    edit = new_match(app, doc)
    page.goto(f"{base}/m/{edit}")
    if not get_game(doc["game"]).describe().melds:  # what is left is counted (taps_counted)
        count = Counter(page)
        enter_counted_round(count, doc)
        taps = count.taps
    elif path in ("walk", "walk-no-hold"):
        taps = enter_round(page, doc, hold=path == "walk")
    else:
        taps = enter_round_picker(page, doc, counts=path == "picker-counts")
    check_scores(page, doc)
    return taps


@dataclass
class PhonesRun:
    """The taps of one round entered on a phone per player and the scorekeeper's."""

    keeper_before: int  # the scoreboard's "Everyone enters their own"
    keeper_during: int  # the bonus cards, who went out, the last card
    keeper_save: int  # "Save game"
    players: dict[str, int]  # per player: the link opened, the walker, the counts
    delays: list[float]  # per part, seconds from its send to the scorekeeper's form showing it

    @property
    def keeper(self) -> int:
        """The scorekeeper's taps in all."""
        return self.keeper_before + self.keeper_during + self.keeper_save

    def busiest(self) -> tuple[str, int]:
        """The phone with the most taps, and how many."""
        phones = {"scorekeeper": self.keeper, **self.players}
        name = max(phones, key=lambda n: phones[n])
        return name, phones[name]

    def wall(self, tap: float) -> float:
        """The round's wall time, everyone tapping at once, ``tap`` seconds a tap: the
        scorekeeper opens the parts, then the players enter theirs while the scorekeeper
        taps the ending, then the last part reaches the form and the scorekeeper saves."""
        meanwhile = max(self.keeper_during, *self.players.values())
        return (self.keeper_before + meanwhile + self.keeper_save) * tap + self.delays[-1]


def measure_phones(
    browser: Any, app: Any, base: str, doc: dict[str, Any], hold: bool = True, scheme: str = "light"
) -> PhonesRun:
    """Enter ``doc`` on a new match with a phone per player (each its own browser context at
    390×844) and the scorekeeper's; the taps per phone. The phones are driven one after
    another; each part's delay is measured from its send until the scorekeeper's form shows
    it. Raises ScoresDiffer on other scores."""
    edit = new_match(app, doc)
    held = {"viewport": PHONE, "color_scheme": scheme, "locale": "en"}
    contexts = [browser.new_context(**held) for _ in range(len(doc["players"]) + 1)]
    try:
        pages = [c.new_page() for c in contexts]
        for page in pages:
            page.set_default_timeout(10_000)
        keeper = Counter(pages[0])
        keeper.page.goto(f"{base}/m/{edit}")
        links = open_parts(keeper)
        before = keeper.taps
        phones = [Counter(page) for page in pages[1:]]
        for phone, link, player in zip(phones, links, doc["players"], strict=True):
            phone.open(link, f"{player['name']}'s link")
        enter_ending(keeper, doc, exact_last=False)
        during = keeper.taps - before
        delays: list[float] = []
        for seat, (phone, player) in enumerate(zip(phones, doc["players"], strict=True)):
            enter_part(phone, doc["game"], player, hold)
            wait_filled(keeper.page, seat, player)
            delays.append(time.perf_counter() - phone.at)
            phone.page.locator("#part-sent").wait_for()
        keeper.tap(keeper.page.locator("#save-button"), "save")
        wait_saved(keeper.page)
        check_scores(keeper.page, doc)
    finally:
        for context in contexts:
            context.close()
    taps = {p["name"]: phone.taps for p, phone in zip(doc["players"], phones, strict=True)}
    return PhonesRun(before, during, keeper.taps - before - during, taps, delays)


def check_scores(page: Any, doc: dict[str, Any]) -> None:
    """The scoreboard's totals against the rules core's; raises ScoresDiffer if they differ."""
    expected = {p["name"]: p["score"] for p in score_document(doc)["players"]}
    shown = dict(zip([p["name"] for p in doc["players"]], board_totals(page), strict=True))
    if shown != expected:
        raise ScoresDiffer(f"the scoreboard shows {shown}, companion score says {expected}")


class ScoresDiffer(Exception):
    """The saved round's scores are not the rules core's."""


def report(one: int, run: PhonesRun, tap: float) -> list[str]:
    """What ``--phones`` prints: the taps per phone, the busiest, both wall times, the ratio."""
    lines = [f"one phone: {one} taps"]
    lines.append(
        f"scorekeeper: {run.keeper} taps ({run.keeper_before} before the parts open, "
        f"{run.keeper_during} while the players enter theirs, {run.keeper_save} to save)"
    )
    lines += [f"{name}: {taps} taps" for name, taps in run.players.items()]
    name, most = run.busiest()
    lines.append(f"busiest phone: {name}, {most} taps (goal <= 15)")
    delays = ", ".join(f"{d:.2f}" for d in run.delays)
    lines.append(f"each part's send to the scorekeeper's form: {delays} s (the last counts)")
    alone, together = one * tap, run.wall(tap)
    meanwhile = max(run.keeper_during, *run.players.values())
    lines.append(
        f"wall time at {tap:g} s a tap: one phone {alone:.1f} s; {len(run.players)} phones "
        f"{together:.1f} s ({run.keeper_before} + {meanwhile} + {run.keeper_save} taps "
        f"+ {run.delays[-1]:.2f} s)"
    )
    lines.append(f"ratio {together / alone:.2f} (goal <= 0.4)")
    return lines


# --- A rack by photo (contract "Photos") ----------------------------------------------------


def photo_part(count: Counter, photo: Path) -> tuple[list[str], float]:
    """On a player's own page: "Photograph the rack" (the camera opens), "use the photo" (the
    camera's own button; here the photo handed to the page), one tap on each tile marked ? to
    confirm it, and "Send my part". Returns the rack as sent and the seconds from the shutter
    (the photo handed over) to the chips on the page: shrunk, sent, read and drawn."""
    page = count.page
    with page.expect_file_chooser() as chooser:
        count.tap(page.locator(".photo-take"), "photograph the rack")
    shutter = time.perf_counter()
    chooser.value.set_files(str(photo))
    count.taps += 1
    count.log.append("use the photo")
    page.locator("[data-photo-chips] .photo-chip").first.wait_for()
    seconds = time.perf_counter() - shutter
    count.read_ms = int(page.locator("[data-photo]").get_attribute("data-read-ms") or 0)
    unsure = page.locator("[data-photo-chips] .photo-chip.unsure")
    while unsure.count():
        count.tap(unsure.first, "confirm a tile")
    rack = page.locator("fieldset.player input.mono").input_value().split()
    count.tap(page.locator("#save-button"), "send my part")
    page.locator("#part-sent").wait_for()
    return rack, seconds


def open_parts_api(app: Any, edit: str) -> list[str]:
    """The round's parts opened as the scorekeeper's phone would (``POST …/parts``); each
    seat's own page, in seat order."""
    client = app.test_client()
    revision = client.get(f"/api/v1/matches/{edit}").get_json()["revision"]
    opened = client.post(f"/api/v1/matches/{edit}/parts", headers={"If-Match": f'"{revision}"'})
    return [f"/p/{seat['token']}" for seat in opened.get_json()["seats"]]


def measure_photo(browser: Any, app: Any, base: str, photo: Path, scheme: str) -> None:
    """A rack by photo on a player's own page: prints the rack, the seconds from shutter to
    chips and, last, the taps."""
    edit = new_match(app, {"game": "rummikub", "players": [{"name": "Anna"}, {"name": "Béla"}]})
    links = open_parts_api(app, edit)
    context = browser.new_context(viewport=PHONE, color_scheme=scheme, locale="en")
    page = context.new_page()
    page.set_default_timeout(10_000)
    count = Counter(page)
    count.open(base + links[0], "the link")
    count.taps, count.log = 0, []  # the link is opened once a match, not per photo
    rack, seconds = photo_part(count, photo)
    context.close()
    print(f"rack {' '.join(rack)}")
    print(f"shutter to chips {seconds:.2f} s (sent, read and answered in {count.read_ms} ms)")
    print(f"taps: {', '.join(count.log)}")
    print(f"{count.taps} taps")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "round", type=Path, nargs="?", help="a round document of any game (contract: score)"
    )
    parser.add_argument(
        "--photo", type=Path, help="a rack photo: its taps on a player's own page instead"
    )
    parser.add_argument(
        "--path", choices=["walk", "walk-no-hold", "picker", "picker-counts"], default="walk"
    )
    parser.add_argument("--dark", action="store_true", help="the phone in dark mode")
    parser.add_argument("--phones", action="store_true", help="also a phone per player (own hands)")
    parser.add_argument(
        "--tap-seconds", type=float, default=1.0, help="--phones: the time a tap takes (s)"
    )
    args = parser.parse_args(argv)
    if args.photo is not None:
        return _photo_main(args.photo, "dark" if args.dark else "light")
    if args.round is None:
        parser.error("give a round document, or --photo PHOTO")
    doc = json.loads(args.round.read_text(encoding="utf-8"))
    if args.phones and (args.path not in ("walk", "walk-no-hold") or not _melds(doc)):
        parser.error("--phones takes a round of a game that enters melds, on the walker")
    from playwright.sync_api import sync_playwright

    executable = CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium")
    scheme = "dark" if args.dark else "light"
    with tempfile.TemporaryDirectory() as tmp, serve(Path(tmp)) as (app, base):
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=executable, args=ARGS)
            context = browser.new_context(viewport=PHONE, color_scheme=scheme, locale="en")
            page = context.new_page()
            page.set_default_timeout(10_000)
            try:
                taps = measure(page, app, base, doc, args.path)
                context.close()
                if args.phones:
                    hold = args.path == "walk"
                    run = measure_phones(browser, app, base, doc, hold, scheme)
            except ScoresDiffer as err:
                print(err)
                return 1
            finally:
                browser.close()
    if args.phones:
        print("\n".join(report(taps, run, args.tap_seconds)))
    else:
        print(f"{taps} taps")
    return 0


def _photo_main(photo: Path, scheme: str) -> int:
    from playwright.sync_api import sync_playwright

    executable = CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium")
    with tempfile.TemporaryDirectory() as tmp, serve(Path(tmp)) as (app, base):
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=executable, args=ARGS)
            try:
                measure_photo(browser, app, base, photo, scheme)
            finally:
                browser.close()
    return 0


def _melds(doc: dict[str, Any]) -> bool:
    return bool(get_game(doc["game"]).describe().melds)


if __name__ == "__main__":
    sys.exit(main())

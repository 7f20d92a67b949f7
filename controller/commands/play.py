"""``dicetable play``: a person plays in the terminal against bots, with simulated dice."""

from __future__ import annotations

import argparse
import random
import re
import sys
from typing import Any, Protocol, TextIO

from controller.commands.showdown import showdown
from controller.commands.simulate import add_option_argument, parse_options, seated_bots
from controller.games.base import Game, Input
from controller.games.engine import Engine, and_list
from controller.games.errors import DiceTableError, IllegalAction, InvalidInput
from controller.games.records import SeatInput, field_names
from controller.games.registry import GAMES
from controller.games.tao import Ante, Call, Raise
from controller.games.rolls import Roll
from controller.simulation import DEFAULT_BOT, BotTable, describe

TAO_HELP = """Type the number of a choice, or the words:
  pass                    pass (only on your turn to pass)
  raise | call | ante     with black stones when you have them
  raise white, call white with white stones (a white raise or call forces a reroll)
  call black=1 white=1    an exact mix of stones (when the bid is more than 1)
  fold                    leave the round (only in answer to a raise)
  help                    this text
  quit                    leave the table"""

HOLDEM_HELP = """Type the number of a choice, or the words:
  check | call | fold     nothing to put in / match the bet / give up the hand
  bet N                   open the betting with N chips
  raise N                 raise to N chips in total this round (raise to N works too)
  allin                   put in every chip you have
  reroll DIE N            Standard DiceHoldem, right after your own check, call, bet or raise:
  protect DIE N             N chips to put community die DIE (0-4, left to right) in that state
  pass                    no reroll or protect bet this turn
  rebuy | leave           when you have no chips left, between hands
  help                    this text
  quit                    leave the table"""


class Quit(DiceTableError, EOFError):
    """The person left the table (typed quit or closed the input)."""


class Dealer(Protocol):
    """What the table says to the person, in the words of one game."""

    unit: str  # what the players bet: stones or chips
    help: str

    def status(self, view: dict[str, Any], note: str) -> list[str]:
        """What the person at ``view``'s seat needs to see before choosing."""
        ...

    def choice(self, record: Input, view: dict[str, Any]) -> str:
        """One entry of the menu of choices."""
        ...

    def hand_over(self, game: Game, viewer: int) -> str:
        """The result of the hand (round) that just ended: every hand shown, named, and who won
        what (and a match, when one ended)."""
        ...

    def tell(self, said: str, record: Input, before: dict[str, Any],
             after: dict[str, Any], viewer: int) -> str:
        """What happened, for the person: ``said`` or better words (a reroll told as one)."""
        ...

    def words(self, words: list[str], choices: list[Input]) -> list[str]:
        """Typed words in the record's terms: the verb, then numbers or ``name=N``."""
        ...


class TerminalPlayer:
    """A person at ``seat``: shows what they may see, lists their choices and reads one."""

    def __init__(self, seat: int, stdin: TextIO, out: TextIO, dealer: Dealer) -> None:
        self.seat = seat
        self.stdin = stdin
        self.out = out
        self.dealer = dealer

    def choose(self, game: Game) -> Input:
        """Prompt until the person gives a legal input (or quits)."""
        view = game.seat_view(self.seat)
        self._say("\n".join(self.dealer.status(view, to_you(game.pending().note, self.seat))))
        choices = game.legal_inputs(self.seat)
        menu = "  ".join(f"{n}) {self.dealer.choice(c, view)}" for n, c in enumerate(choices, 1))
        while True:
            self._say(f"Your choices: {menu}")
            self.out.write("> ")
            self.out.flush()
            line = self.stdin.readline()
            if not line or line.strip().lower() in ("quit", "q", "exit"):
                raise Quit("You left the table")
            if line.strip().lower() in ("help", "h", "?", ""):
                self._say(self.dealer.help)
                continue
            try:
                return self._read(game, line.strip(), choices)
            except (IllegalAction, InvalidInput) as err:
                self._say(f"Refused: {to_you(str(err), self.seat)}")

    def _read(self, game: Game, text: str, choices: list[Input]) -> Input:
        if text.isdigit():
            if not 1 <= int(text) <= len(choices):
                raise InvalidInput(f"there is no choice {text} (1-{len(choices)})")
            return choices[int(text) - 1]
        words = self.dealer.words(text.lower().split(), choices)
        kinds = game.records() if isinstance(game, Engine) else {}
        kind = kinds.get(words[0])
        if kind is None:
            raise InvalidInput(f"{text!r} is not a choice (type a number, or help)")
        record = game.parse_input(" ".join([kind.verb, str(self.seat),
                                            *_named(kind, words[1:])]))
        game.verify(record)
        return record

    def _say(self, text: str) -> None:
        if text:
            print(text, file=self.out)


def to_you(text: str, seat: int) -> str:
    """An engine's sentence about ``seat`` addressed to the person at that seat: the seat is
    ``you`` wherever the engine names it (alone, in a list, ``seat 0's``), the words that refer
    back to it agree (``they`` opening the reason after a colon, ``wins``), and the sentence
    keeps its capital.

    >>> to_you("Seat 0 cannot raise now: the table waits for seat 0 to pass", 0)
    'You cannot raise now: the table waits for you to pass'
    >>> to_you("Seat 0 and Seat 2 split", 0), to_you("Seat 1 and Seat 0 tie", 0)
    ('You and Seat 2 split', 'Seat 1 and you tie')
    >>> to_you("the table waits for seats 2, 0, 1 to call or fold", 0)
    'the table waits for seat 2, you and seat 1 to call or fold'
    >>> to_you("Seat 1 wins the main pot; Seat 0 wins side pot 1", 0)
    'Seat 1 wins the main pot; you win side pot 1'
    >>> to_you("Seat 0 cannot pass: they already passed in this part", 0)
    'You cannot pass: you already passed in this part'
    """
    said = _SEAT_LIST.sub(lambda found: _list_with_you(found, seat), text)
    said = re.sub(rf"\b[Ss]eat {seat}'s\b", "your", said)
    said = re.sub(rf"\b[Ss]eat {seat}\b", "you", said)
    said = _YOU_DO.sub(lambda found: found[1] + _agreed(found[2]), said)
    subject, colon, rest = said.partition(": ")
    if colon and re.search(r"\byour?\b", subject):  # "they" opening the reason: the seats before
        rest = _THEY.sub(lambda found: _THEM_TO_YOU[found[0]], rest)
    said = subject + colon + rest
    return _capital(said) if text[:1].isupper() else said


_SEAT_LIST = re.compile(r"\b[Ss]eats (\d+(?:, \d+)+)\b")  # engine.seat_words: "seats 0, 2"
_YOU_DO = re.compile(r"(^you |[;:] you |^You )(\w+)")  # "you" as a clause's one subject
_THEY = re.compile(r"^(they|their)\b")
_THEM_TO_YOU = {"they": "you", "their": "your"}
_YOU_VERBS = {"is": "are", "has": "have", "was": "were"}


def _list_with_you(found: re.Match[str], seat: int) -> str:
    """``seats 2, 0, 1`` with the person's seat 0 as ``seat 2, you and seat 1``."""
    seats = [int(number) for number in found[1].split(", ")]
    if seat not in seats:
        return found[0]
    return and_list(["you" if other == seat else f"seat {other}" for other in seats])


def _agreed(verb: str) -> str:
    """An engine's verb for one seat as said to ``you``.

    >>> [_agreed(verb) for verb in ("wins", "passes", "is", "cannot", "raises")]
    ['win', 'pass', 'are', 'cannot', 'raise']
    """
    if verb in _YOU_VERBS:
        return _YOU_VERBS[verb]
    if re.search(r"(ss|sh|ch|x|z|o)es$", verb):
        return verb[:-2]
    return verb[:-1] if verb.endswith("s") and not verb.endswith("ss") else verb


def _named(kind: type[SeatInput], values: list[str]) -> list[str]:
    """Typed values as the record's ``name=N`` fields: bare numbers fill the fields in order,
    ``name=N`` pairs may leave fields out (they are 0). Refusals say what to type, in words."""
    names = field_names(kind)
    wanted = " ".join([kind.verb, *(name.upper() for name in names)])
    pairs = [value.partition("=") for value in values]
    if values and all(eq for _, eq, _ in pairs):
        given = {name: number for name, _, number in pairs}
        unknown = [name for name in given if name not in names]
        if unknown:
            raise InvalidInput(f"{kind.verb} has no {unknown[0]!r}: type {wanted!r}")
        numbers = [given.get(name, "0") for name in names]
    elif any(eq for _, eq, _ in pairs):
        raise InvalidInput(f"{kind.verb}: give every number bare or every one as NAME=N: type {wanted!r}")
    else:
        numbers = values
        if len(values) != len(names):
            _whole(numbers, wanted)  # a word that is no number is named before the count
            raise InvalidInput(f"{kind.verb} takes {len(names)} number{'s' * (len(names) != 1)}, "
                               f"not {len(values)}: type {wanted!r}")
    _whole(numbers, wanted)
    return [f"{name}={number}" for name, number in zip(names, numbers)]


def _whole(numbers: list[str], wanted: str) -> None:
    """Refuse the first of ``numbers`` that is not a whole number of 0 or more, naming it."""
    bad = [number for number in numbers if not number.isdigit()]
    if bad and _negative(bad[0]):
        raise InvalidInput(f"{bad[0]!r} is below zero: type {wanted!r} with whole numbers of 0 or more")
    if bad:
        raise InvalidInput(f"{bad[0]!r} is not a number: type {wanted!r} with whole numbers")


def _negative(word: str) -> bool:
    """Whether ``word`` is a whole number below zero (``-5``): a number, but none the rules take.

    >>> _negative("-5"), _negative("five"), _negative("-0")
    (True, False, False)
    """
    return word[:1] == "-" and word[1:].isascii() and word[1:].isdigit() and int(word) < 0


# --- Tao Dice ------------------------------------------------------------------------------------

class TaoDealer:
    """Tao Dice at the terminal: stones by colour, the bid, the hidden 2d6 and the d12."""

    unit = "stones"
    help = TAO_HELP

    def __init__(self) -> None:
        self.matches_won: list[int] | None = None

    def status(self, view: dict[str, Any], note: str) -> list[str]:
        """Your dice and stones, the pot and the bid; then every other seat; then the note."""
        return [*tao_status_lines(view), note]

    def choice(self, record: Input, view: dict[str, Any]) -> str:
        """``ante with 1 black``."""
        return describe(record, viewer=view["me"]).removeprefix("You ")

    def hand_over(self, game: Game, viewer: int) -> str:
        """The demo's table of the round that ended, who won it with what score, and the match
        when it ended."""
        view = game.public_view()
        last = view.get("last_round")
        if not last:
            return ""
        lines = [round_table(view), "== " + result_text(game, viewer)]
        before = self.matches_won or [0] * len(view["matches_won"])
        self.matches_won = list(view["matches_won"])
        won = [seat for seat, count in enumerate(self.matches_won) if count > before[seat]]
        if won:
            tally = ", ".join(f"{who(seat, viewer)} {count}"
                              for seat, count in enumerate(self.matches_won))
            lines.append(f"== {_capital(who(won[0], viewer))} win{'s' * (won[0] != viewer)} "
                         f"match {last['match']}! Matches won: {tally}")
        return "\n".join(lines)

    def tell(self, said: str, record: Input, before: dict[str, Any],
             after: dict[str, Any], viewer: int) -> str:
        """Tao Dice's events say what happened; a seat that put in its last stone is told that it
        waits for the showdown, which the table then plays on without asking it."""
        if not isinstance(record, (Ante, Raise, Call)) or after["last_round"] != before["last_round"]:
            return said
        player = after["players"][record.seat]
        if player["black"] + player["white"] or player["status"] != "active":
            return said
        return f"{said}: no stones left, {'you wait' if record.seat == viewer else 'waits'} " \
               f"for the showdown"

    def words(self, words: list[str], choices: list[Input]) -> list[str]:
        """``raise white`` as ``raise black=0 white=N``; a bare ``raise`` with the fewest whites.
        Any other words after the verb (``raise 2 1``, ``raise -5``, ``raise five``) are left to
        the game's own reading, which plays or refuses them: never a bare raise that drops them."""
        verb = words[0]
        if verb not in ("raise", "call", "ante") or words[1:] not in ([], ["white"], ["black"]):
            return words
        mixes = [(c.black, c.white) for c in choices
                 if isinstance(c, (Ante, Raise, Call)) and c.verb == verb]
        due = sum(mixes[0]) if mixes else 1
        if words[1:2] == ["white"]:
            return [verb, "black=0", f"white={due}"]
        if words[1:2] == ["black"] or not mixes:
            return [verb, f"black={due}", "white=0"]
        black, white = min(mixes, key=lambda m: m[1])
        return [verb, f"black={black}", f"white={white}"]


def who(seat: int, viewer: int) -> str:
    """``you`` or ``seat 2``."""
    return "you" if seat == viewer else f"seat {seat}"


def headline(game: Game, viewer: int) -> str:
    """Who won what in the hand (round) that just ended, in the engine's words, which the
    scoreboard's showdown box says too: only the rules know whether two winners split a pot,
    took different pots or tie and play on. The person's seat is ``you``."""
    result = game.view().result
    return to_you(result.headline, viewer) if result else ""


def result_text(game: Game, viewer: int) -> str:
    """The engine's whole sentence for the room about the hand (round) that just ended, to the
    person: Tao Dice's says the pot and the winning score (``Seat 1 wins 6 stones with score
    16``), or that the tied seats play a tiebreak for it."""
    result = game.view().result
    return to_you(result.text, viewer) if result else ""


def _stones(count: int) -> str:
    """``1 stone``, ``4 stones``."""
    return f"{count} stone{'s' * (count != 1)}"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def tao_status_lines(view: dict[str, Any]) -> list[str]:
    """What the person at ``view['me']`` sees of a Tao Dice table."""
    me = view["players"][view["me"]]
    dice = view["my_d6"]
    mine = f"your 2d6: {dice[0]} {dice[1]} (total {dice[0] + dice[1]})" if dice else "no dice yet"
    d12 = f", your d12: {me['d12']}" if me["d12"] is not None else ""
    pot = view["pot"]["black"] + view["pot"]["white"]
    lines = [f"-- {mine}{d12} | you hold {me['black']} black, {me['white']} white "
             f"| pot {pot} | bid {view['multiplier']}"]
    for player in view["players"]:
        if player["seat"] != view["me"]:
            d12 = f", d12 {player['d12']}" if player["d12"] is not None else ""
            lines.append(f"   seat {player['seat']}: {player['status']}, "
                         f"{_stones(player['black'] + player['white'])}{d12}")
    return lines


# --- the hold'em games ---------------------------------------------------------------------------

# what a hold'em input says, for "You ..." and for "Seat N ..."; fields fill the braces
_ALIASES = {"all-in": "allin", "all": "allin", "shove": "allin"}


class HoldemDealer:
    """Tauren Hold'em and DiceHoldem at the terminal: chips, your dice, the board, the pot."""

    unit = "chips"
    help = HOLDEM_HELP

    def status(self, view: dict[str, Any], note: str) -> list[str]:
        """One line for the hand (your dice, board, pot, to call), one for the stacks."""
        me = view["seat"]
        seats = view["seats"]
        pot = sum(p["amount"] for p in view["pots"]) + sum(s["bet"] for s in seats)
        dice = " ".join(view["my_dice"]) or "not rolled"
        head = (f"-- hand {view['hand']}, {note} | your dice: {dice} | board: {_board(view)} "
                f"| pot {pot}")
        if view["phase"] == "betting" and view["to_act"] == me:
            owed = _owed(view)
            head += f" | to call {owed}" if owed else " | nothing to call"
        return [head, "   " + " | ".join(_seat_text(view, seat) for seat in seats)]

    def choice(self, record: Input, view: dict[str, Any]) -> str:
        """``raise to 8``, ``call 2``, ``bet 2 to reroll die 0``."""
        if not isinstance(record, SeatInput):
            return str(record)
        said = record.says(you=True)
        return f"{said} {_owed(view)}" if record.verb == "call" else said

    def hand_over(self, game: Game, viewer: int) -> str:
        """The board, each hand shown with its name, who won what, and everyone's chips."""
        last = game.public_view()["last_hand"]
        if not last:
            return ""
        won = {int(seat): chips for seat, chips in last["won"].items()}
        lines = [f"== hand {last['hand']}: board {' '.join(last['board']) or '-'}"]
        hands = showdown(game)
        for hand in hands:
            name = f"{hand.rank.category.label}: {' '.join(hand.rank.best)}"
            prize = f", {'win' if hand.seat == viewer else 'wins'} {won[hand.seat]}" \
                if hand.seat in won else ""
            lines.append(f"   {who(hand.seat, viewer):<7} {' '.join(hand.dice):<5} {name}{prize}")
        if not hands:
            lines += [f"   {_capital(who(seat, viewer))} {'win' if seat == viewer else 'wins'} "
                      f"{chips}: everyone else folded" for seat, chips in won.items()]
        stacks = ", ".join(f"{who(s, viewer)} {chips}" for s, chips in enumerate(last["stacks"]))
        return "\n".join(lines + ["== " + headline(game, viewer), f"   chips: {stacks}"])

    def tell(self, said: str, record: Input, before: dict[str, Any],
             after: dict[str, Any], viewer: int) -> str:
        """A community roll as what it did: the new dice, the rerolled ones and their faces. The
        river's roll ends the hand, which clears the board: its dice are the last hand's."""
        if isinstance(record, SeatInput) and record.verb == "call":
            return f"{said} {_owed(before, record.seat)}"
        if not isinstance(record, Roll) or record.seat is not None:
            return said
        old, new = before["board"], after["board"] or after["last_hand"].get("board", [])
        if not new:
            return said
        rerolled = [int(die) for die, state in before["die_states"].items()
                    if state["state"] == "reroll" and int(die) < len(old)]
        parts = [f"die {die} rerolled: {old[die]} -> {new[die]}" for die in sorted(rerolled)]
        added = new[len(old):]
        if added:
            parts.insert(0, f"the table rolls {' '.join(added)}")
        return f"{_capital('; '.join(parts) or said)} (board: {' '.join(new)})"

    def words(self, words: list[str], choices: list[Input]) -> list[str]:
        """``all-in`` as ``allin``; ``raise to 10`` as ``raise 10``."""
        verb = _ALIASES.get(words[0], words[0])
        rest = words[2:] if verb in ("raise", "bet") and words[1:2] == ["to"] else words[1:]
        return [verb, *rest]


def _owed(view: dict[str, Any], seat: int | None = None) -> int:
    """What ``seat`` (the viewer's by default) puts in to call: the bet to match, or its stack."""
    mine = view["seats"][view["seat"] if seat is None else seat]
    owed: int = view["current_bet"] - mine["bet"]
    stack: int = mine["stack"]
    return max(0, min(owed, stack))


def _board(view: dict[str, Any]) -> str:
    """``H O M``; DiceHoldem numbers its dice and marks their reroll/protect state."""
    if not view["board"]:
        return "-"
    if view["game"] != "diceholdem":
        return " ".join(view["board"])
    states = view["die_states"]
    marks = {int(die): f"({state['state']} {state['bet']})" for die, state in states.items()}
    return " ".join(f"{die}:{face}{marks.get(die, '')}" for die, face in enumerate(view["board"]))


def _seat_text(view: dict[str, Any], seat: dict[str, Any]) -> str:
    """``you 14 chips, bet 2`` or ``seat 2 12 chips (button), folded``."""
    number = seat["seat"]
    name = "you" if number == view["seat"] else f"seat {number}"
    if seat["out"]:
        return f"{name} out"
    button = " (button)" if number == view["button"] else ""
    notes = [f"bet {seat['bet']}"] if seat["bet"] else []
    notes += [word for word, flag in (("folded", seat["folded"]), ("all-in", seat["all_in"]))
              if flag]
    chips = f"{seat['stack']} chip{'s' * (seat['stack'] != 1)}"
    return f"{name} {chips}{button}" + (f", {', '.join(notes)}" if notes else "")


# --- the command ---------------------------------------------------------------------------------

def dealer_for(game: str) -> Dealer:
    """The words of ``game`` at the terminal."""
    return TaoDealer() if game == "tao" else HoldemDealer()


def register(subparsers: Any) -> None:
    """Add the ``play`` subcommand."""
    parser = subparsers.add_parser(
        "play", help="play against bots in the terminal",
        description="You play at one seat against bots; the dice are simulated (you see your own "
                    "hidden dice, nobody else's). Type a choice's number or the action in words "
                    "(Tao Dice: 'raise white', 'fold'; hold'em: 'call', 'raise 10', "
                    "'reroll 2 4'); type help at a prompt for the commands.")
    parser.add_argument("--game", default="tao", choices=sorted(GAMES), help="game (default tao)")
    parser.add_argument("--players", type=int, default=3, help="seats, you included (default 3)")
    parser.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    parser.add_argument("--seed", type=int, help="seed of dice and bots (default: random)")
    parser.add_argument("--bots", default=DEFAULT_BOT, help="the bots at the other seats, in seat order, "
                        f"comma-separated; fewer go round the table again (default {DEFAULT_BOT})")
    add_option_argument(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Play one game with the person on stdin/stdout."""
    return play(args, sys.stdin, sys.stdout)


def play(args: argparse.Namespace, stdin: TextIO, out: TextIO) -> int:
    """The play loop with injectable streams (tests feed ``stdin``)."""
    bots = seated_bots(args.game, args.players, args.bots, person=True)
    if not 0 <= args.seat < args.players:
        raise InvalidInput(f"--seat {args.seat} is not a seat (0-{args.players - 1})")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    dealer = dealer_for(args.game)
    person = TerminalPlayer(args.seat, stdin, out, dealer)
    table = BotTable(args.game, args.players, seed, bots_around(bots, args.players, args.seat),
                     parse_options(args.option), {args.seat: person})
    print(f"{args.game}: you are seat {args.seat} of {args.players} (seed {seed}); "
          f"type help at a prompt", file=out)
    try:
        while not table.game.pending().over:
            _step(table, dealer, args.seat, out)
    except Quit as stop:
        stacks = ", ".join(f"{who(s, args.seat)} {n}"
                           for s, n in enumerate(table.game.final()["stacks"]))
        print(f"{stop}. {dealer.unit.capitalize()}: {stacks}", file=out)
        return 0
    winner = table.game.final().get("winner")
    print("== You win the game!" if winner == args.seat else f"== Seat {winner} wins the game.",
          file=out)
    return 0


def bots_around(bots: list[str], players: int, seat: int) -> list[str]:
    """A bot per seat, as :class:`BotTable` takes them: the named ``bots`` in turn at the seats
    other than the person's ``seat`` (whose bot is replaced by the person, so a name there would
    be lost), again round the table when fewer.

    >>> bots_around(["random", "heuristic"], 4, 1)
    ['random', 'random', 'heuristic', 'random']
    """
    others = [other for other in range(players) if other != seat]
    at = {other: bots[n % len(bots)] for n, other in enumerate(others)}
    return [at.get(other, bots[0]) for other in range(players)]


def _step(table: BotTable, dealer: Dealer, seat: int, out: TextIO) -> None:
    """One input at the table, told to the person; the hand's result when it ends one."""
    hands, before = table.hands, table.game.public_view()
    event = table.step()
    said = dealer.tell(event.describe(viewer=seat), event.record, before,
                       table.game.public_view(), seat)
    print(f"  {said}", file=out)
    summary = dealer.hand_over(table.game, seat) if table.hands != hands else ""
    if summary:
        print(summary, file=out)


def round_table(view: dict[str, Any]) -> str:
    """The last round's result: revealed dice and scores, then every seat's stones as the round
    left them (after a match's last round the view's are the next match's: everyone's again)."""
    last = view["last_round"]
    revealed = {row["seat"]: row for row in last["reveal"]}
    winners = last["winners"]
    lines = ["   seat  stones (b+w)  2d6    d12  score  result"]
    for player in view["players"]:
        seat = player["seat"]
        row = revealed.get(seat)
        d6, d12, score = (f"{row['d6'][0]} {row['d6'][1]}", row["d12"], row["score"]) if row \
            else ("-", "-", "-")
        dice = f"{d6:<5}  {d12:>3}  {score:>5}"
        black, white = last["stones"][seat]
        result = _result(seat, winners, last, player["status"] if black + white else "out")
        stones = f"{black + white} ({black}+{white})"
        lines.append(f"   {seat:>4}  {stones:<12}  {dice}  {result}")
    return "\n".join(lines)


def _result(seat: int, winners: list[int], last: dict[str, Any], status: str) -> str:
    if seat in winners and len(winners) == 1:
        how = "everyone else folded" if last["folded_out"] else "best score"
        return f"takes the pot of {last['pot']} ({how})"
    if seat in winners:
        return "tied: plays the tiebreak"
    return {"out": "out of the match", "folded": "folded"}.get(status, "")

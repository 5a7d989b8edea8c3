"""A coronation match's deals on the scoreboard, a row each: its points, who started it, who
won it and by what class. Written here as HTML once for the page, its words looked up once
(a template's _() in a loop copies the whole context at every call)."""

from __future__ import annotations

from collections.abc import Sequence

from flask_babel import get_translations
from markupsafe import Markup, escape

from ... import rules
from ..board import Page


def deal_rows(players: Sequence[str], rounds: Sequence[rules.RoundResult], word: str,
              page: Page) -> Markup:
    """Return each deal's row: its number, each player's points (▸ for who started it), who
    won it and its class, and the link that corrects it."""
    say = get_translations()
    started, edit = say.ugettext("%(name)s started"), say.ugettext("Edit %(round)s %(number)s")
    classes: dict[str, str] = {}  # each class of victory in words, looked up once
    rows = []
    for done in rounds:
        number = done.number
        winner, victory = done.extra.get("deal_winner"), done.extra.get("victory")
        cells = "".join(
            f'\n        <td class="{"won" if name == winner else ""}"><span class="pts">'
            f'{escape(done.scores[name])}</span>'
            + (f'<span class="starter" title="{started % {"name": escape(name)}}">▸</span>'
               if name == done.first_player else "") + "</td>\n        "
            for name in players)
        if victory and victory not in classes:
            classes[victory] = escape(say.ugettext(victory) % {})
        who = f'<span class="who">{page.names[winner]}</span>' if winner else ""
        link = ("" if page.watching else
                f'<a class="edit" href="{page.edit(number)}" aria-label="'
                f'{escape(edit % {"round": word, "number": number})}">✎</a>')
        rows.append(
            f'\n      <tr data-deal="{number}">\n        <th scope="row">{number}</th>\n        '
            f'{cells}\n        <td class="result">{who}<span class="victory {escape(victory)}">'
            f'{classes[victory] if victory else ""}</span></td>\n        <td>{link}</td>'
            "\n      </tr>\n      ")
    return Markup("".join(rows))

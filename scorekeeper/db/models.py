"""Storage only: what was entered at the table. Scores are computed by `rules` when read."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, PrimaryKeyConstraint, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from ..extensions import db


def table_time() -> datetime:
    """Return the current local time of the machine serving the table, as stored.

    The app runs at home, in the table's own time zone: a game played at 21:00 is dated
    that evening, not the next day as UTC would have it in the Americas.
    """
    return datetime.now()


class Player(db.Model):
    """A person on the roster. `name_key` keeps names unique whatever their case."""

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    name_key: Mapped[str] = mapped_column(String(40), unique=True)
    created_at: Mapped[datetime] = mapped_column(default=table_time)


class Night(db.Model):
    """A game night: games played close together in time."""

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str | None] = mapped_column(String(80))
    notes: Mapped[str | None] = mapped_column(Text)
    started_at: Mapped[datetime] = mapped_column(default=table_time, index=True)
    games: Mapped[list[Game]] = relationship(back_populates="night", order_by="Game.id")


class Game(db.Model):
    """One game: its variant and settings, its seats, and the rounds entered."""

    id: Mapped[int] = mapped_column(primary_key=True)
    variant: Mapped[str] = mapped_column(String(20))
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    first_dealer_seat: Mapped[int] = mapped_column(default=0)
    played_on: Mapped[date] = mapped_column(default=lambda: table_time().date())
    ended: Mapped[bool] = mapped_column(default=False)  # ended by hand
    night_id: Mapped[int | None] = mapped_column(ForeignKey("night.id"), index=True)
    created_at: Mapped[datetime] = mapped_column(default=table_time, index=True)
    # Indexed: home lists the games changed last, whatever the history.
    updated_at: Mapped[datetime] = mapped_column(default=table_time, onupdate=table_time,
                                                 index=True)
    # One more with every change, so a phone can ask "anything new since version V?".
    version: Mapped[int] = mapped_column(default=0, server_default="0")
    # The order games are rated in, by variant: a correction rates the games after it again.
    __table_args__ = (
        Index("ix_game_order", "variant", "played_on", "created_at", "id"),
        # A season's games (a range of days), the days games were played on, and every game
        # in the order played (a night's story reads back along it).
        Index("ix_game_played_on", "played_on", "created_at", "id"),
    )

    night: Mapped[Night | None] = relationship(back_populates="games")
    seats: Mapped[list[Seat]] = relationship(
        back_populates="game", order_by="Seat.seat", cascade="all, delete-orphan")
    rounds: Mapped[list[Round]] = relationship(
        back_populates="game", order_by="Round.number", cascade="all, delete-orphan")
    events: Mapped[list[Event]] = relationship(
        back_populates="game", order_by="(Event.hand_number, Event.seq)",
        cascade="all, delete-orphan")

    @property
    def players(self) -> list[Player]:
        """Return the players in seating order (clockwise)."""
        return [seat.player for seat in self.seats]


class Seat(db.Model):
    """Where a player sits in a game; seat 0 is the first in clockwise order."""

    __table_args__ = (UniqueConstraint("game_id", "seat"), UniqueConstraint("game_id", "player_id"))
    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"))
    seat: Mapped[int]
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"), index=True)
    game: Mapped[Game] = relationship(back_populates="seats")
    player: Mapped[Player] = relationship(lazy="joined")


class Round(db.Model):
    """One hand (a deal in coronation) as entered. `token` makes a resubmit harmless."""

    __table_args__ = (UniqueConstraint("game_id", "number"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"))
    number: Mapped[int]
    went_out_id: Mapped[int | None] = mapped_column(ForeignKey("player.id"))
    corners: Mapped[list[int | None] | None] = mapped_column(JSON)  # player ids
    dragon_id: Mapped[int | None] = mapped_column(ForeignKey("player.id"))
    token: Mapped[str | None] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(default=table_time)
    updated_at: Mapped[datetime] = mapped_column(default=table_time, onupdate=table_time)

    game: Mapped[Game] = relationship(back_populates="rounds")
    hands: Mapped[list[HandEntry]] = relationship(
        back_populates="round", cascade="all, delete-orphan", lazy="selectin")


class HandEntry(db.Model):
    """Cards (and kings among them) one player held when a hand ended."""

    __table_args__ = (
        UniqueConstraint("round_id", "player_id"),
        # A game's hands read from the index alone (every game page, and a backup's all).
        Index("ix_hand_entry_read", "round_id", "player_id", "cards", "kings"),
    )
    id: Mapped[int] = mapped_column(primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("round.id", ondelete="CASCADE"))
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"))
    cards: Mapped[int]
    kings: Mapped[int] = mapped_column(default=0)
    round: Mapped[Round] = relationship(back_populates="hands")


class Event(db.Model):
    """Chips paid during a hand (a pass, a king held, a missed draw), saved as it is tapped.

    Events of hand `hand_number` belong to that round once it is recorded; events of the
    next hand number are the hand in progress.
    """

    __table_args__ = (UniqueConstraint("game_id", "hand_number", "seq"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"))
    hand_number: Mapped[int]
    seq: Mapped[int]
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"))
    kind: Mapped[str] = mapped_column(String(20))
    token: Mapped[str | None] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(default=table_time)

    game: Mapped[Game] = relationship(back_populates="events")
    player: Mapped[Player] = relationship(lazy="joined")


class SeatPhone(db.Model):
    """The phone that took a seat of a game: it may send that player's part of each hand.

    One phone per seat and one seat per phone in a game. The phone is known by the digest
    of a random key in its session; `label` says what it is ("iPhone"), so taking the seat
    from another phone can say which phone had it. Not part of a backup.
    """

    __tablename__ = "seat_phone"
    __table_args__ = (UniqueConstraint("game_id", "seat"), UniqueConstraint("game_id", "phone"))
    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"))
    seat: Mapped[int]
    phone: Mapped[str] = mapped_column(String(64))  # sha256 of the phone's key
    label: Mapped[str] = mapped_column(String(80))
    taken_at: Mapped[datetime] = mapped_column(default=table_time)


class HandPart(db.Model):
    """One player's part of the hand in progress, as a phone sent it: went out, or the cards
    and kings left (coronation: the deal as that player saw it, `deal`).

    The hand is recorded from its parts once every part is in and they agree; the parts
    stay beside it, to show which phone entered what, until the hand is changed another way.
    `by_seat` is the seat of the phone that sent it (None: a phone without a seat),
    `by_label` that phone's name for the table.
    """

    __tablename__ = "hand_part"
    __table_args__ = (UniqueConstraint("game_id", "number", "seat"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"))
    number: Mapped[int]
    seat: Mapped[int]
    went_out: Mapped[bool] = mapped_column(default=False)
    cards: Mapped[int | None]
    kings: Mapped[int] = mapped_column(default=0)
    deal: Mapped[list[int | None] | None] = mapped_column(JSON)  # corners' seats, then dragon
    by_seat: Mapped[int | None]
    by_label: Mapped[str] = mapped_column(String(80))
    was: Mapped[str | None] = mapped_column(String(80))  # said before another phone changed it
    updated_at: Mapped[datetime] = mapped_column(default=table_time, onupdate=table_time)


class GameResult(db.Model):
    """A cache of where a game stands, written with every change to it by the same rules.

    Derived, never the truth: `flask --app app results check` recomputes every game and
    reports a difference, `results rebuild` fills the tables again.
    """

    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"),
                                         primary_key=True)
    over: Mapped[bool] = mapped_column(default=False)
    rounds: Mapped[int] = mapped_column(default=0)
    problem: Mapped[str | None] = mapped_column(Text)  # why the rules refuse the game, if so


class ResultSeat(db.Model):
    """One player's place in a game's cached result: total, place, won, and a sortable key;
    with the game's variant and whether it is over beside them, so a player's figures are
    counted from this table's indexes alone."""

    __table_args__ = (
        PrimaryKeyConstraint("game_id", "player_id"),
        # A player's record by variant, and the roster's: read from the index alone.
        Index("ix_result_seat_player_figures", "player_id", "over", "variant", "won"),
        # Every player's record (the roster), of a season too: its games are checked in it.
        Index("ix_result_seat_records", "over", "player_id", "won", "game_id"),
        # A player's finished games in order, with whether they won: night by night.
        Index("ix_result_seat_games", "player_id", "over", "game_id", "won"),
        # Each game's winners: history's list of nights; with `over`, a season's counts.
        Index("ix_result_seat_winners", "game_id", "won", "player_id", "over"),
    )
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"))
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"))
    total: Mapped[int]
    place: Mapped[int]  # 1 for the leader, in the order the rules rank the players
    won: Mapped[bool]  # the game is over and this player won or shared the win
    standing: Mapped[int]  # lower is better whatever the variant: compares two players
    variant: Mapped[str] = mapped_column(String(20))  # the game's, as the figures group it
    over: Mapped[bool]  # the game is over: its wins and places count


class ResultPair(db.Model):
    """Two players who met in a finished game, and how the first finished against the
    other (1 ahead, -1 behind, 0 level): head-to-head, counted from one index."""

    __table_args__ = (
        PrimaryKeyConstraint("game_id", "player_id", "other_id"),
        Index("ix_result_pair_versus", "player_id", "other_id", "outcome"),
    )
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"))
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"))
    other_id: Mapped[int] = mapped_column(ForeignKey("player.id"))
    outcome: Mapped[int]


class ResultFact(db.Model):
    """What one player's hands in a game added up to, by fact name (kings left, chips won...)."""

    __table_args__ = (
        PrimaryKeyConstraint("game_id", "player_id", "fact"),
        Index("ix_result_fact_player_sums", "player_id", "fact", "value"),  # summed from it
    )
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"))
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"))
    fact: Mapped[str] = mapped_column(String(40))
    value: Mapped[int]


class ResultBest(db.Model):
    """A player's best of one game by name (`best_kings`: the most kings left in one hand):
    the table's records are the most of them, never a sum. The game's variant, day and start
    are beside it (as a game keeps them from the start), so a variant's record and the first
    to set it are the top of one index."""

    __table_args__ = (
        PrimaryKeyConstraint("game_id", "player_id", "fact"),
        # The table's record of a variant, and the first to set it, between any two days.
        Index("ix_result_best_records", "variant", "fact", "value", "played_on", "created_at",
              "game_id", "player_id"),
        # A player's own.
        Index("ix_result_best_player", "player_id", "variant", "fact", "value", "played_on",
              "created_at", "game_id"),
    )
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"))
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"))
    fact: Mapped[str] = mapped_column(String(40))
    value: Mapped[int]
    variant: Mapped[str] = mapped_column(String(20))  # the game's
    played_on: Mapped[date]  # the game's
    created_at: Mapped[datetime]  # the game's


class TallySeat(db.Model):
    """A player's finished and unfinished games of a variant, won or not, of all time: the
    results cache's seats summed, so the roster and a player's page read a few rows however
    long the history. Kept for the players of every game changed (`db.results`)."""

    __tablename__ = "tally_seat"
    __table_args__ = (PrimaryKeyConstraint("player_id", "variant", "over", "won"),)
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id", ondelete="CASCADE"))
    variant: Mapped[str] = mapped_column(String(20))
    over: Mapped[bool]
    won: Mapped[bool]
    games: Mapped[int]


class TallyFact(db.Model):
    """What a player's hands added up to by fact name, of all time: `result_fact` summed."""

    __tablename__ = "tally_fact"
    __table_args__ = (PrimaryKeyConstraint("player_id", "fact"),)
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id", ondelete="CASCADE"))
    fact: Mapped[str] = mapped_column(String(40))
    value: Mapped[int]


class TallyPair(db.Model):
    """The finished games a player shared with another, by how they finished against them
    (1 ahead, -1 behind, 0 level), of all time: `result_pair` counted."""

    __tablename__ = "tally_pair"
    __table_args__ = (PrimaryKeyConstraint("player_id", "other_id", "outcome"),)
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id", ondelete="CASCADE"))
    other_id: Mapped[int] = mapped_column(ForeignKey("player.id", ondelete="CASCADE"))
    outcome: Mapped[int]
    games: Mapped[int]


class TallyNight(db.Model):
    """A player's finished games and wins on each night they finished one (a game outside
    any night counts on its own day), numbered from 1 in the order played (by day, then
    night), with the games and wins of every night up to it: `result_seat` counted by
    night, so their page's chart reads its points by number, however long the history."""

    __tablename__ = "tally_night"
    __table_args__ = (
        PrimaryKeyConstraint("player_id", "number"),
        # Their best night: the most wins, then the fewest games, then the latest.
        Index("ix_tally_night_best", "player_id", "wins", "games", "number"),
    )
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id", ondelete="CASCADE"))
    number: Mapped[int]
    day: Mapped[date]
    night_id: Mapped[int | None]  # None: a game outside any night (its name is the night's)
    games: Mapped[int]
    wins: Mapped[int]
    played: Mapped[int]  # finished games on this night and every night before it
    won: Mapped[int]


class Season(db.Model):
    """A season the table named itself (a league, a summer), from its first day to its last,
    both counted. A day in no named season is in its calendar year's season."""

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(40), unique=True)
    first_day: Mapped[date]
    last_day: Mapped[date]


class RatingStep(db.Model):
    """One player's skill rating before and after one finished game of a variant.

    Derived, never the truth: computed from the finishing order of every finished game of the
    variant, in the order the games were played (played_on, created_at, game id), and kept
    with every change (`reports.ratings`); `results check` compares them with a fresh
    computation and `results rebuild` fills them again. `played_on` and `created_at` are the
    game's, so a variant's steps are put in order from this table alone; `number` and
`winning_run` count a player's steps of every variant in that order, so their page reads
only the steps its chart draws, however long their history.
    """

    __tablename__ = "rating_step"
    __table_args__ = (
        PrimaryKeyConstraint("game_id", "player_id"),
        # A player's line over time in a variant: their steps in the order played.
        Index("ix_rating_step_line", "player_id", "variant", "games"),
        # A player's steps in the order played, every variant's: what the ratings keeper
        # numbers again from a game on, and a season's on their page.
        Index("ix_rating_step_played", "player_id", "played_on", "created_at", "game_id"),
        # A player's steps by number: their last (how many games, the run it ends).
        Index("ix_rating_step_number", "player_id", "number", "winning_run"),
        # A player's runs of wins: their longest.
        Index("ix_rating_step_runs", "player_id", "winning_run"),
        # A variant's latest step up to a number: a point of a player's rating chart.
        Index("ix_rating_step_chart", "player_id", "variant", "number"),
        # The roster: every player's latest step in a variant (the most games).
        Index("ix_rating_step_roster", "variant", "player_id", "games"),
        # The same in a season (its page's ratings), and a player's in a season (their page).
        Index("ix_rating_step_season", "season", "variant", "player_id", "games"),
        # A variant's steps from a game onward: what a correction recomputes.
        Index("ix_rating_step_order", "variant", "played_on", "created_at", "game_id"),
    )
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"))
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id", ondelete="CASCADE"))
    variant: Mapped[str] = mapped_column(String(20))
    played_on: Mapped[date]
    created_at: Mapped[datetime]
    season: Mapped[str] = mapped_column(String(40))  # the name of the game's season
    place: Mapped[int]  # 1 for the winner; tied players share a place
    games: Mapped[int]  # the player's finished games of this variant so far, this one counted
    number: Mapped[int]  # the player's finished games of every variant so far, this one counted
    winning_run: Mapped[int]  # their wins in a row (every variant) ending here; 0 for a loss
    mu_before: Mapped[float]  # the rating this game was played from (widened at a new season)
    sigma_before: Mapped[float]
    mu_after: Mapped[float]
    sigma_after: Mapped[float]


class Setting(db.Model):
    """One setting of this install, by name: the table passcode's hash ("passcode").

    Not part of a backup: a backup is the table's games, and restoring one on another
    install leaves that install's passcode as it was.
    """

    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


class UnlockedPhone(db.Model):
    """A phone that gave the table passcode: the digest of the random key its cookie holds.

    Each phone has a key of its own, kept until it expires, the phone is forgotten on the
    settings page, or the passcode changes (every row goes). Not part of a backup.
    """

    __tablename__ = "unlocked_phone"
    id: Mapped[int] = mapped_column(primary_key=True)
    digest: Mapped[str] = mapped_column(String(64), unique=True)  # sha256 of the cookie's key
    label: Mapped[str] = mapped_column(String(80))  # what the phone said it is, shortened
    created_at: Mapped[datetime]
    expires_at: Mapped[datetime]


class Crowd(db.Model):
    """A night for a crowd: its players at several tables at once, round after round, each
    table's game an ordinary game of the night (docs/crowd.md). What the host chose: the
    variant and its rules, the table size, how the first round is seated (`seating`:
    random, rating or hand), how the next ones are (`moving`: progressive, redraw or same),
    and how many rounds (None: decided as the night goes; ending the night sets it to the
    round being played)."""

    id: Mapped[int] = mapped_column(primary_key=True)
    night_id: Mapped[int] = mapped_column(ForeignKey("night.id", ondelete="CASCADE"),
                                          unique=True)
    variant: Mapped[str] = mapped_column(String(20))
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    table_size: Mapped[int]
    seating: Mapped[str] = mapped_column(String(20))
    moving: Mapped[str] = mapped_column(String(20))
    rounds: Mapped[int | None]
    created_at: Mapped[datetime] = mapped_column(default=table_time)


class CrowdPlayer(db.Model):
    """One of a crowd night's players."""

    __tablename__ = "crowd_player"
    __table_args__ = (PrimaryKeyConstraint("crowd_id", "player_id"),)
    crowd_id: Mapped[int] = mapped_column(ForeignKey("crowd.id", ondelete="CASCADE"))
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"), index=True)


class CrowdTable(db.Model):
    """A table of a round of a crowd night: its game (an ordinary game, with its seats).
    Table 1 is the top table."""

    __tablename__ = "crowd_table"
    __table_args__ = (UniqueConstraint("crowd_id", "round", "number"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    crowd_id: Mapped[int] = mapped_column(ForeignKey("crowd.id", ondelete="CASCADE"))
    round: Mapped[int]
    number: Mapped[int]
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"),
                                         unique=True)


class CrowdPhone(db.Model):
    """A phone that joined a crowd night by its QR code as one of its players: seated at
    that player's table each round (as a `SeatPhone`). Not part of a backup."""

    __tablename__ = "crowd_phone"
    __table_args__ = (UniqueConstraint("crowd_id", "phone"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    crowd_id: Mapped[int] = mapped_column(ForeignKey("crowd.id", ondelete="CASCADE"))
    phone: Mapped[str] = mapped_column(String(64))  # sha256 of the phone's key
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id", ondelete="CASCADE"))
    label: Mapped[str] = mapped_column(String(80))


class Guess(db.Model):
    """A wrong guess of the passcode or of a join code, by a phone's address, counted before
    it was checked: the limits hold for every server process of one database. A right guess
    is taken back; a guess older than the longest limit is forgotten. Not part of a backup.
    """

    id: Mapped[int] = mapped_column(primary_key=True)
    address: Mapped[str] = mapped_column(String(64), index=True)
    at: Mapped[float] = mapped_column(index=True)  # seconds since the epoch (time.time())

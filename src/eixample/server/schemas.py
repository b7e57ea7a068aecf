"""Request and response models of the HTTP and WebSocket API. Every request is validated here."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue, TypeAdapter, model_validator

from eixample.core.rng import SEED_LIMIT
from eixample.server.live import MAX_SEATS

Name = Annotated[str, Field(min_length=1, max_length=40, pattern=r"^[^\x00-\x1f<>]*$")]
BOT_SPEC = r"^[A-Za-z][A-Za-z0-9_\-]*(:[A-Za-z0-9_.=\-]+)*$"
BotSpec = Annotated[str, Field(min_length=1, max_length=100, pattern=BOT_SPEC)]
ActionText = Annotated[str, Field(min_length=1, max_length=500)]
MoveNumber = Annotated[int, Field(ge=0, le=1_000_000)]
RequestId = Annotated[str, Field(max_length=64)]


class Strict(BaseModel):
    """Every request body: no coercion ("1" is not a number, true is not 1), no unknown fields."""

    model_config = ConfigDict(extra="forbid", strict=True)


class SeatSpec(Strict):
    kind: Literal["person", "bot"] = "person"
    name: Name | None = None
    bot: BotSpec | None = Field(
        default=None,
        description='bot spec for a bot seat: "random", "greedy", "mcts:seconds=1"..., or a level name '
                    'of the game\'s `levels` in the catalog ("strong"), which stands for its spec',
    )

    open: bool = Field(
        default=False,
        description="a person's seat open to anyone: the lobby offers it to whoever joins it first "
        "(POST /api/games/{id}/seats/{seat}/join); otherwise only its invitation link takes it",
    )

    account: Annotated[str, Field(min_length=1, max_length=64)] | None = Field(
        default=None,
        description="a person's seat for the account of this user name (the creator's own or another "
        "player's; the creator must be signed in): it is that account's at once, with no invitation link",
    )

    @model_validator(mode="after")
    def _bot_only_for_bots(self) -> SeatSpec:
        if self.kind == "person" and self.bot is not None:
            raise ValueError("a person's seat takes no bot spec")
        if self.kind == "bot" and (self.open or self.account is not None):
            raise ValueError("only a person's seat is open to anyone or names an account")
        if self.open and self.account is not None:
            raise ValueError("a seat that names an account is not open to anyone")
        return self


class CreateGame(Strict):
    game: Annotated[str, Field(min_length=1, max_length=64, description="a game name from /api/catalog")]
    seats: Annotated[
        list[SeatSpec],
        Field(
            min_length=1,
            max_length=MAX_SEATS,
            description="one per player, as many as the game allows (its min_players to max_players)",
        ),
    ]
    options: dict[str, JsonValue] = Field(
        default_factory=dict, max_length=16, description="game options, by name"
    )
    seed: Annotated[
        int | None,
        Field(
            ge=0,
            lt=SEED_LIMIT,
            description="random seed; drawn by the server if omitted. With two or more people "
            "only together with seed_shown",
        ),
    ] = None
    seed_shown: bool = Field(
        default=False, description="the lobby and every seat's page show the seed from the start"
    )
    clock_seconds: Annotated[
        int | None,
        Field(
            ge=1,
            le=3600,
            description="turn clock: seconds per decision, after which a bot plays the seat "
            "until its player takes it back; none when omitted",
        ),
    ] = None
    turn_days: Annotated[
        Literal[1, 3, 7] | None,
        Field(
            description="a turn-based game: days per move (1, 3 or 7) instead of a real-time clock; "
            "each player is told when it is their turn (e-mail, Web Push). None: real time",
        ),
    ] = None
    time_out: Literal["bot", "lose"] = Field(
        default="bot",
        description="in a turn-based game, what a seat whose time runs out gets: a bot plays on until "
        "its player takes the seat back (\"bot\"), or the seat loses as if its player resigned (\"lose\")",
    )
    hints_allowed: bool = Field(
        default=False,
        description="every seat may ask the server's bot for hints (its top three choices with their "
        "win probability); the lobby and every seat's page say so. Never in a game created without it",
    )
    rated: bool = Field(
        default=True,
        description="the game's end updates its players' ratings (when every person's seat belongs to "
        "a signed-in account: see docs/ratings.md); false for a friendly game",
    )

    @model_validator(mode="after")
    def _one_kind_of_clock(self) -> CreateGame:
        if self.turn_days is not None and self.clock_seconds is not None:
            raise ValueError("a game is either real time (clock_seconds) or turn-based (turn_days), not both")
        if self.turn_days is None and "time_out" in self.model_fields_set:
            raise ValueError("time_out is for a turn-based game (turn_days)")
        return self


class MoveRequest(Strict):
    action: ActionText
    expected_move: MoveNumber = Field(description="the move_number of the state the action was chosen in")


class UndoRequest(Strict):
    expected_move: MoveNumber


class HintRequest(Strict):
    expected_move: MoveNumber = Field(description="the move_number of the decision the hint is for")


# -- WebSocket messages from the client -----------------------------------------------------------


class WsHello(Strict):
    type: Literal["hello"]
    token: Annotated[str, Field(min_length=1, max_length=200)] | None = None
    patches: bool = False
    """Send changes as patches (`{"type": "patch", ...}`) after the first whole state message."""


class WsResync(Strict):
    """Ask for the whole state message again (a client that missed a patch)."""

    type: Literal["resync"]
    request_id: RequestId | None = None


class WsMove(Strict):
    type: Literal["move"]
    action: ActionText
    expected_move: MoveNumber
    request_id: RequestId | None = None


class WsUndo(Strict):
    type: Literal["undo"]
    expected_move: MoveNumber
    request_id: RequestId | None = None


class WsPing(Strict):
    type: Literal["ping"]
    request_id: RequestId | None = None


ChatText = Annotated[str, Field(min_length=1, max_length=500)]


class ChatRequest(Strict):
    text: ChatText


class WsChat(Strict):
    type: Literal["chat"]
    text: ChatText
    request_id: RequestId | None = None


class WsSeatChange(Strict):
    """resign (a bot plays the seat to the end), leave (a bot plays it until taken back), back."""

    type: Literal["resign", "leave", "take_back"]
    request_id: RequestId | None = None


AnyClientMessage = WsMove | WsUndo | WsPing | WsHello | WsChat | WsSeatChange | WsResync
ClientMessage = Annotated[AnyClientMessage, Field(discriminator="type")]
CLIENT_MESSAGE: TypeAdapter[AnyClientMessage] = TypeAdapter(ClientMessage)
HELLO: TypeAdapter[WsHello] = TypeAdapter(WsHello)


# -- responses (for the OpenAPI description) ------------------------------------------------------


class ErrorOut(BaseModel):
    error: str = Field(description="what went wrong, in English")
    code: str = Field(description="stable: the kind of error (docs/api.md lists them)")
    args: dict[str, Any] = Field(description="the values the code's message names")


class SeatOut(BaseModel):
    seat: int
    letter: str
    kind: str = Field(description='"person", "bot", or "automa" (a seat the game plays itself)')
    name: str
    bot: str | None
    level: str | None = Field(
        default=None, description="the name of the game's bot level whose spec `bot` is (None: its own spec)"
    )
    joined: bool
    claimed: bool = False
    open: bool = Field(default=False, description="open to anyone: joinable from the lobby while unclaimed")
    connected: bool | None = None


class ClaimedOut(BaseModel):
    seat: int
    token: str = Field(description="the seat's private token: keep it; the invitation no longer acts")


class CreatedSeatOut(SeatOut):
    token: str | None = Field(description="the seat's secret token (persons only); shown once")
    link: str | None = Field(description="invitation link carrying the token (persons only)")


class CreatedOut(BaseModel):
    game_id: str
    game: str
    seats: list[CreatedSeatOut]
    spectator_link: str
    creator_token: str = Field(description="the creator's secret: releases a claimed seat; shown once")
    state: dict[str, Any] = Field(description="the game as a spectator sees it")


class GameSummaryOut(BaseModel):
    game_id: str
    game: str
    title: str
    status: Literal["open", "running", "finished"]
    players: int
    move_number: int
    current_player: int
    seats: list[SeatOut]
    created_at: str
    updated_at: str
    result: dict[str, Any] | None
    seed_shown: bool = False
    seed: int | None = None
    hints_allowed: bool = False
    rated: bool = True
    links: dict[str, str | None]


class GameListOut(BaseModel):
    games: list[GameSummaryOut]


class StateOut(BaseModel):
    type: Literal["state"]
    game_id: str
    game: str
    title: str
    seat: int | None
    status: str
    move_number: int
    current_player: int
    your_turn: bool
    decision: str | dict[str, Any] = Field(
        description="the pending decision: a text, or a structured entry {key, args} (docs/formats.md)"
    )
    legal_actions: list[str]
    can_undo: bool
    seats: list[SeatOut]
    view: dict[str, Any]
    score_history: list[list[float] | None]
    result: dict[str, Any] | None
    seed_shown: bool = False
    seed: int | None = Field(default=None, description="the seed, if the game was created with seed_shown")
    version: int = Field(
        default=0,
        description="counts the changes this server pushed for the game; a WebSocket patch applies "
        "to the state message of its `base` version",
    )


class ReplayOut(BaseModel):
    type: Literal["replay"]
    game_id: str
    game: str
    title: str
    step: int
    steps: int
    actions: list[str]
    action_seats: list[int]
    seats: list[SeatOut]
    view: dict[str, Any]
    decision: str | dict[str, Any] = Field(
        description="the pending decision: a text, or a structured entry {key, args} (docs/formats.md)"
    )
    current_player: int
    score_history: list[list[float] | None]
    result: dict[str, Any]


class ChatLineOut(BaseModel):
    id: int
    seat: int
    letter: str
    name: str = Field(description="the seat's name")
    kind: Literal["chat", "event", "hidden"] = Field(
        description='"event": resigned, left, clock, timeout (a turn-based seat lost on time), back or '
        'ended (by a moderator); "hidden": a line a moderator hid (its text empty)'
    )
    text: str
    at: str | None


class StandInOut(BaseModel):
    seat: int
    why: Literal["resigned", "left", "clock"]


class TableOut(BaseModel):
    type: Literal["table"]
    game_id: str
    clock_seconds: int | None
    turn_days: int | None = Field(default=None, description="a turn-based game's days per move")
    time_out: Literal["bot", "lose"] | None = Field(
        default=None, description="a turn-based game: what a seat whose time runs out gets"
    )
    deadline: str | None
    seconds_left: float | None
    stand_ins: list[StandInOut]
    rematch: str | None
    lines: list[ChatLineOut]
    change: bool = Field(description="true when pushed because the table changed (lines then empty)")


class RematchOut(BaseModel):
    game_id: str
    seat: int
    token: str | None = Field(description="this seat's private token in the new game (already claimed)")
    link: str


class BotLevelOut(BaseModel):
    name: str = Field(description="a plain name for players: beginner, intermediate, strong, strongest")
    spec: str = Field(description="the bot spec it stands for")


class CatalogGameOut(BaseModel):
    name: str
    title: str
    min_players: int
    max_players: int
    options: list[str]
    switches: list[str] = Field(description="those of `options` that are true or false")
    choices: dict[str, dict[str, list[str | int]]] = Field(
        description="by number of players: those of `options` whose value is one of a few, with their "
                    "values (the lobby shows a menu); an option with choices for some numbers of "
                    "players but not this one is not offered for it")
    ranges: dict[str, dict[str, tuple[int, int]]] = Field(
        description="by number of players: those of `options` that are a whole number, with the least "
                    "and greatest value accepted (the lobby shows a number field); an option with a range "
                    "for some numbers of players but not this one is not offered for it")
    levels: list[BotLevelOut] = Field(
        description="the bot levels offered for this game, weakest first, each with its spec")
    renderer: str | None = Field(description="URL of the board renderer module, if the game has one")
    automa: list[str] = Field(
        description="in a one-seat game, the names of the seats the game plays itself (its automa)"
    )
    listed: bool = Field(
        default=True,
        description="offered in the lobby's list of games; an unlisted one (an example kept for tests) "
                    "is created by the API, or from the lobby opened as /?game=<name>")
    house_rules: list[str] = Field(
        default_factory=list,
        description="those of `options` that are not printed rules (the lobby shows them apart)")
    seat_lists: dict[str, tuple[int, int]] = Field(
        default_factory=dict,
        description="those of `options` that list one whole number per seat, in turn order, with the "
                    "least and greatest each may be (the lobby shows a number field per seat)")


class CatalogOut(BaseModel):
    games: list[CatalogGameOut]
    bots: list[str]
    levels: list[BotLevelOut] = Field(
        description="the default bot levels, weakest first (docs/strength.md): those of a game without "
                    "levels of its own; each game lists the levels offered for it")
    bot_ceilings: dict[str, float] = Field(description="the most a bot spec may ask for, per parameter")
    bots_available: bool = Field(description="false while every bot spec plays at random")


class HintChoiceOut(BaseModel):
    action: str = Field(description="a legal action of the seat's current decision")
    win_probability: float = Field(description="the seat's estimated win probability after it (0 to 1)")
    win_probabilities: list[float] = Field(description="every seat's, summing to 1")


class HintOut(BaseModel):
    game_id: str
    move_number: int
    seat: int
    choices: list[HintChoiceOut] = Field(description="the bot's top choices (at most three), best first")
    cached: bool = Field(description="true when the same hint was computed before")


class CurvePointOut(BaseModel):
    move: int = Field(description="the position: before decision `move` (the last one: the end of the game)")
    win_probability: list[float] = Field(description="each seat's estimated win probability, summing to 1")


class WinCurveOut(BaseModel):
    type: Literal["win_probability"]
    game_id: str
    status: Literal["pending", "ready", "failed"] = Field(
        description='"pending" until the curve is computed (ask again later), then "ready"'
    )
    done: int = Field(description="points computed so far")
    total: int = Field(description="points the curve will have")
    points: list[CurvePointOut] = Field(description="the curve, once ready")
    budget: dict[str, float] = Field(description="the search budget of one point")

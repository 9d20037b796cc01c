"""The board's sounds: the notes the buzzer plays for each kind of outcome.

Each is ((frequency Hz or 0 for a rest, length ms), ...), for hw.buzzer.Buzzer."""

from core import outcome

ACCEPTED = ((2093, 60),)  # one short high beep (C7)
REFUSED = ((220, 120), (0, 80), (220, 120))  # two low beeps (A3)
ROUND_END = ((523, 100), (659, 100), (784, 200))  # rising C5 E5 G5
MOVED = ((1319, 40), (0, 40), (1319, 40))  # two short beeps (E6): the other table moved
GAME_OVER = ((392, 120), (523, 120), (659, 120), (784, 240), (659, 120),
             (784, 480))  # a little fanfare: G4 C5 E5 G5- E5 G5--

SOUNDS = {
    outcome.ACCEPTED: ACCEPTED,
    outcome.REFUSED: REFUSED,
    outcome.ROUND_END: ROUND_END,
    outcome.GAME_OVER: GAME_OVER,
    outcome.NEW_GAME: ACCEPTED,  # a new game at the table: accepted like any button
    outcome.MENU: ACCEPTED,  # a step in the settings menu
    outcome.MOVED: MOVED,  # another table's move (a remote game), not a round's end
}

"""beattrainer: a voice-and-rhythm trainer and referee for Beatz'n'Catz.

The package is laid out along the data flow: audio source (`audio`), features and
onsets (`dsp`), recognition, the referee (`judge`), the game (`mzkz`), and the
terminal UI and reports. `deck` is the card core under every game, including the
text-mode companion games in `games`.
"""

__version__ = "0.1.0"

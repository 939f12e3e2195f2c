"""Single key presses from the terminal, read by a background thread.

The thread lets the audio loop never wait for the keyboard.
"""
from __future__ import annotations

import queue
import sys
import threading


class TerminalKeys:
    """Keys typed in a terminal (cbreak mode), restored on close."""

    def __init__(self, stream=None) -> None:
        import termios
        import tty

        self.stream = stream or sys.stdin
        self.fd = self.stream.fileno()
        self._saved = termios.tcgetattr(self.fd)
        tty.setcbreak(self.fd)
        self._queue: queue.Queue[str] = queue.Queue()
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        while True:
            ch = self.stream.read(1)
            if not ch:
                return
            self._queue.put(ch.lower())

    def poll(self) -> list[str]:
        """Keys pressed since the last poll."""
        keys = []
        while not self._queue.empty():
            keys.append(self._queue.get_nowait())
        return keys

    def close(self) -> None:
        """Give the terminal back its normal mode."""
        import termios

        termios.tcsetattr(self.fd, termios.TCSADRAIN, self._saved)


def open_keys():
    """Terminal keys when stdin is a terminal, else none."""
    from beattrainer.play import NoKeys

    if sys.stdin.isatty():
        try:
            return TerminalKeys()
        except (OSError, ImportError):
            return NoKeys()
    return NoKeys()

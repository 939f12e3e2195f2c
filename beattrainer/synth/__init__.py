"""Synthetic test audio: the clip library, ground-truth onsets and the performance renderer."""

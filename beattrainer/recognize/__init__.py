"""Slot recognition: what was said (or not) in each slot of a performance.

Layers: acoustic (numpy; silence, voice, whisper, hiss, kiss, squeak, growl,
percussion, syllables, dynamics), speech (pocketsphinx, or vosk with a user
model), the group's own voice (templates from completed performances and
enrolment), and a fusion that the strictness setting biases.
"""
from beattrainer.recognize.acoustic import GroupProfile, SlotAcoustics, describe_slot
from beattrainer.recognize.recognizer import Heard, RecognizeError, SlotContext, SlotRecognizer
from beattrainer.recognize.speech import BackendError
from beattrainer.recognize.vocabulary import Item, ItemError

__all__ = ["BackendError", "GroupProfile", "Heard", "Item", "ItemError", "RecognizeError",
           "SlotAcoustics", "SlotContext", "SlotRecognizer", "describe_slot"]

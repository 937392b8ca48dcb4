"""Answers from memory: the evidence shown within a word budget, the prompt, citations."""

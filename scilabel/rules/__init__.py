"""Hand rules as data, given to the labeller as parameters: :mod:`scilabel.rules.vetoes`."""

"""gamenight: a home for the tabletop games Centrix and Color City."""

__version__ = "0.1.0"

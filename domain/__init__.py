"""Pure game rules: no I/O, no clock, no global RNG."""

"""The bot file protocol of Lanes (spec section 10): exact texts in and out, no I/O."""

"""Chinese Classical rules as implemented by Unix Mah-Jong 1.11, with every game option."""

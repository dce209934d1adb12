"""Rule systems: option schemas, legality, winning hands, scoring and settlement."""

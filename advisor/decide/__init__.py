"""From profile and facts to a Decision: condition language, rule packs, engine, sensitivity."""

"""The rules of Mighty Kingdoms as pure functions of the state and one event (contract
section 5): each decides first (RuleError) and only then changes the state."""

"""The game-agnostic core: the API, errors, options, action catalogs, chance and registry."""

"""A tournament from regulations to its close: registration, publishing, start sheets, officials,
the directors' dashboard and closing."""

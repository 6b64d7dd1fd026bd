"""The web layer: one blueprint per area, sharing the request's database session."""

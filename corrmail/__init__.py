"""corrmail."""

"""Swiss pairing by the four programs of ``000 §3.18`` under the principles of ``002`` and ``004``."""

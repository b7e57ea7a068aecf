"""Games on the platform."""

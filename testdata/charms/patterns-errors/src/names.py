"""Endpoint names; one of them is not declared anywhere."""

FEED = "feed"
ARCHIVE = "archive"
FORECAST = "forecast"

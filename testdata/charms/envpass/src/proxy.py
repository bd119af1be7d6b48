"""Proxy variables for the daemon, from the first source that sets any of them."""

PROXY_VARIABLES = ("HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY")


def proxy_environment(sources) -> dict:
    """The proxy variables of the first mapping in sources that sets one.

    A source is searched under each variable's name and its option-style spelling
    (HTTPS_PROXY and https-proxy), so that a charm's config and os.environ both fit.
    """
    for source in sources:
        found = {}
        for name in PROXY_VARIABLES:
            for spelling in (name, name.lower().replace("_", "-")):
                if source.get(spelling):
                    found[name] = source.get(spelling)
        if found:
            return found
    return {}

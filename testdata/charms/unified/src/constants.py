"""Names and fixed values shared by the Inkwell charm modules.

Endpoint, container and storage names are declared in charmcraft.yaml; keeping
them here lets charm.py and the helper modules agree on them without repeating
string literals.
"""

# Workload container and the Pebble service inside it.
CONTAINER = "inkwell"
SERVICE = "inkwell"

# Peer endpoint used to share the generated session key between units.
PEER = "inkwell-peers"
PEER_SESSION_KEY = "session-key"

# Requires endpoint that publishes the wiki through an ingress proxy.
INGRESS_RELATION = "ingress"

# Storage holding the Markdown pages, and where it is mounted.
STORAGE = "pages"
PAGES_DIR = "/srv/inkwell/pages"

# Files inside the workload container.
CONFIG_FILE = "/etc/inkwell/inkwell.toml"
SEARCH_INDEX_DIR = "/var/lib/inkwell/index"

# Port of the built-in Prometheus exporter; not configurable upstream.
METRICS_PORT = 9102
METRICS_PATH = "/metrics"

# Accepted values of the log-level option.
LOG_LEVELS = ("debug", "info", "warning", "error")

# Export formats understood by `inkwell export`.
EXPORT_FORMATS = ("markdown", "html")


def pages_path(*parts: str) -> str:
    """Return a path under the pages mount, refusing to leave it."""
    joined = "/".join(p.strip("/") for p in parts if p)
    if ".." in joined.split("/"):
        raise ValueError(f"path escapes the pages storage: {joined}")
    return f"{PAGES_DIR}/{joined}" if joined else PAGES_DIR

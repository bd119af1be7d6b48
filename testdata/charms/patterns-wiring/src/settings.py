"""Settings built from the charm config: a plain reader and a typed config class."""

import ops
import pydantic


class Settings:
    """Reads options from the ConfigData the charm hands it."""

    def __init__(self, config: ops.ConfigData):
        self._config = config

    def banner(self) -> str:
        return str(self._config["title"]).upper()


class TideConfig(pydantic.BaseModel):
    """Typed view of the tide options, loaded with CharmBase.load_config."""

    mode: str = "spring"
    high_water: float = 1.5

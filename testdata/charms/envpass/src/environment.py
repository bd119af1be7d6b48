"""The daemon's environment: every charm option, as TERN_<NAME>."""


def daemon_environment(config) -> dict:
    """Map each option to an environment variable: log-level becomes TERN_LOG_LEVEL."""
    env = {f"TERN_{key.upper().replace('-', '_')}": str(value) for key, value in config.items()}
    env.update(dict(PATH="/usr/bin:/bin"))
    return env

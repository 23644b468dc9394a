"""Monte Carlo strategy analyzer for card games.

The Python API (docs/api.md): run, ladder, strength, tune, profile and trace, as the `analyzer` command does them,
giving back DataFrames and reports. They are imported on first use (the command itself needs none of them)."""

__version__ = "0.1.0"

__all__ = ["run", "ladder", "strength", "tune", "profile", "trace", "Result", "TuneOutcome", "ProfileOutcome",
           "ScenarioError", "IdleSettingWarning"]

_FROM = {"ScenarioError": "analyzer.errors", "Result": "analyzer.api_results", "TuneOutcome": "analyzer.api_results",
         "ProfileOutcome": "analyzer.api_results"}


def __getattr__(name):  # (PEP 562: `analyzer.run` imports analyzer.api only when first asked for)
    if name in __all__:
        from importlib import import_module

        return getattr(import_module(_FROM.get(name, "analyzer.api")), name)
    raise AttributeError(f"module 'analyzer' has no attribute {name!r}")


def __dir__():
    return sorted(list(globals()) + __all__)

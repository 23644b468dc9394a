"""The one error type a designer sees: it names the file, the key, the bad value and what is allowed."""


class ScenarioError(ValueError):
    def __init__(self, source, key, value, allowed):
        self.source, self.key, self.value, self.allowed = source, key, value, allowed
        where = f"{source}: " if source else ""
        shown = "(missing)" if value is _MISSING else repr(value)
        super().__init__(f"{where}{key} = {shown}: {allowed}")


class _Missing:
    def __repr__(self):
        return "(missing)"


_MISSING = _Missing()
MISSING = _MISSING

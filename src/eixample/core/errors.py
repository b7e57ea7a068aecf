"""Errors raised by games: bad input gets a clear message and changes nothing."""


class EixampleError(Exception):
    """Base class of every error the engine raises on purpose."""


class IllegalActionError(EixampleError, ValueError):
    """An action that is malformed or not legal in the current state. The state is unchanged."""


class MalformedRecordError(EixampleError, ValueError):
    """A game record or serialized state that cannot be read or replayed."""


class DataFileError(EixampleError, ValueError):
    """A component data file that fails validation: names the file, the entry and the problem."""

"""Helpers for a game's side of the search contract about the cards a seat cannot see."""
from numba import njit


@njit(cache=True, inline="always")
def sort_first(values, n):
    """values[:n] sorted ascending in place, by insertion (the pools are small, and numba's array sort needs the
    runtime (NRT) that the game kernels run without: _nrt=False). For contract.sort_unseen."""
    for i in range(1, n):
        v = values[i]
        j = i - 1
        while j >= 0 and values[j] > v:
            values[j + 1] = values[j]
            j -= 1
        values[j + 1] = v

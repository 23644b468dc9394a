"""What specialise binds for the contract's optional functions (contract.OPTIONAL) a game leaves out."""
from numba import njit


@njit(cache=True)
def reached(pos, stop):
    """Never: the tree search's random rollouts then play to the end of the game."""
    return False


@njit(cache=True)
def sort_unseen(root, seat, look):
    """Leave them in begin_search's order."""
    return None

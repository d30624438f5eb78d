"""The card-network simulator: drives the engine the way a network message would."""

"""The OpenSpiel game: OpenSpiel's random simulation test, resampling, and its ISMCTS."""

from __future__ import annotations

import pickle

import numpy as np
import pyspiel

import citadels.rl.openspiel  # registers the game


def test_random_simulation_test() -> None:
    game = pyspiel.load_game("python_citadels", {"edition": "basic", "players": 2, "deals": 64})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_states_and_games_survive_pickling() -> None:
    game = pyspiel.load_game("python_citadels", {"edition": "classic", "players": 3, "deals": 16})
    state = game.new_initial_state()
    _advance(state, 50, 0)
    copy = pickle.loads(pickle.dumps(state))
    assert copy.history() == state.history()
    assert copy.information_state_string(1) == state.information_state_string(1)
    action = state.legal_actions()[0]
    state.apply_action(action)
    copy.apply_action(action)
    assert str(copy) == str(state)
    again = pickle.loads(pickle.dumps(game))
    assert again.num_distinct_actions() == game.num_distinct_actions()
    assert again.new_initial_state().chance_outcomes() == game.new_initial_state().chance_outcomes()


def test_game_parameters_and_shapes() -> None:
    game = pyspiel.load_game("python_citadels", {"edition": "2016", "players": 5})
    spaces = citadels.rl.openspiel.CitadelsGame({"edition": "2016", "players": 5})
    assert game.num_players() == 5
    assert game.num_distinct_actions() == spaces.space.size
    assert game.observation_tensor_shape() == [spaces.encoder.size]
    assert game.information_state_tensor_shape() == [spaces.encoder.size]


def _advance(state: object, steps: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if state.is_terminal():  # type: ignore[attr-defined]
            return
        if state.is_chance_node():  # type: ignore[attr-defined]
            state.apply_action(int(rng.integers(64)))  # type: ignore[attr-defined]
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))  # type: ignore[attr-defined]


def test_resampled_states_keep_the_players_information_state() -> None:
    game = pyspiel.load_game("python_citadels", {"edition": "classic", "players": 3, "deals": 64})
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    changed = 0
    for seed in range(4):
        state = game.new_initial_state()
        _advance(state, 40 + 15 * seed, seed)
        player = state.current_player()
        for _ in range(3):
            other = state.resample_from_infostate(player, sampler)
            assert other.information_state_string(player) == state.information_state_string(player)
            assert other.observation_tensor(player) == state.observation_tensor(player)
            assert other.legal_actions() == state.legal_actions()
            changed += str(other.engine.state.deck) != str(state.engine.state.deck)
    assert changed > 0


def test_openspiel_ismcts_plays_it() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("python_citadels", {"edition": "basic", "players": 2, "deals": 8})
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bot = ismcts.ISMCTSBot(
        game,
        evaluator,
        2.0,
        10,
        random_state=np.random.RandomState(1),
        use_observation_string=True,
        allow_inconsistent_action_sets=True,
    )
    state = game.new_initial_state()
    state.apply_action(3)
    for _ in range(2):
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)

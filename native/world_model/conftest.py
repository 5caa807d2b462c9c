"""Shared fixtures of the world-model pipeline's tests."""
import pytest
import torch
from transformers import Qwen3_5MoeForCausalLM

from world_model import train

# The special tokens train.py reads from a tokenizer: enough for a model config.
TINY_IDS = {"<|endoftext|>": 0, "<|im_end|>": 2}


@pytest.fixture(scope="module")
def tiny_checkpoint(tmp_path_factory):
    """worldloom-nano's architecture (train.model_config) with random weights and a 256-token
    vocabulary, saved as a Hugging Face checkpoint: what grow.py, train.py and score_turns.py read."""
    torch.manual_seed(7)
    model = Qwen3_5MoeForCausalLM(train.model_config(256, TINY_IDS)).eval()
    folder = tmp_path_factory.mktemp("tiny")
    model.save_pretrained(folder)
    return folder

import pytest

from host_tools.remote.localbroker import Broker


@pytest.fixture
def broker(tmp_path):
    b = Broker(tmp_path / "broker")
    yield b
    b.stop()

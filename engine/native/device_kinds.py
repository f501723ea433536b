"""What kind of device a GPU back-end lists: a graphics card, graphics built into the
processor, or a *software* device that only looks like one.

ggml's own type (``ggml_backend_dev_type``: CPU, GPU, IGPU, ACCEL) is not enough: its Vulkan
back-end reports every device that is not an integrated GPU as ``GPU``, so Mesa's lavapipe
(llvmpipe), SwiftShader and the like, which run Vulkan's compute shaders on the processor,
read as discrete graphics cards. Vulkan itself says what each device is
(``VkPhysicalDeviceProperties.deviceType``: 1 integrated, 2 discrete, 3 virtual, 4 CPU); the
device-list child (engine/native/backends.py) asks it through the same loader ggml opened,
and knows the software rasterisers by name where the loader cannot be asked.
"""

from __future__ import annotations

import ctypes
import logging
import re
import sys

log = logging.getLogger("rotary.backends")

SOFTWARE = "software"          # Device.kind of a device that computes on the processor
VK_INTEGRATED, VK_DISCRETE, VK_VIRTUAL, VK_CPU = 1, 2, 3, 4
# Software Vulkan, OpenGL and Direct3D implementations, as their devices name themselves.
SOFTWARE_NAMES = re.compile(r"llvmpipe|lavapipe|softpipe|swiftshader|microsoft basic render|"
                            r"\bwarp\b", re.I)
_PROPERTIES_BYTES = 4096       # VkPhysicalDeviceProperties is 824 bytes; room to spare
_TYPE_AT, _NAME_AT, _NAME_BYTES = 16, 20, 256     # deviceType, deviceName[256]


class _AppInfo(ctypes.Structure):
    _fields_ = [("sType", ctypes.c_int), ("pNext", ctypes.c_void_p),
                ("pApplicationName", ctypes.c_char_p), ("applicationVersion", ctypes.c_uint32),
                ("pEngineName", ctypes.c_char_p), ("engineVersion", ctypes.c_uint32),
                ("apiVersion", ctypes.c_uint32)]


class _InstanceInfo(ctypes.Structure):
    _fields_ = [("sType", ctypes.c_int), ("pNext", ctypes.c_void_p), ("flags", ctypes.c_uint32),
                ("pApplicationInfo", ctypes.POINTER(_AppInfo)),
                ("enabledLayerCount", ctypes.c_uint32), ("ppEnabledLayerNames", ctypes.c_void_p),
                ("enabledExtensionCount", ctypes.c_uint32),
                ("ppEnabledExtensionNames", ctypes.c_void_p)]


def _loader() -> ctypes.CDLL | None:
    name = {"win32": "vulkan-1.dll", "darwin": "libvulkan.1.dylib"}.get(sys.platform,
                                                                        "libvulkan.so.1")
    try:
        vk = ctypes.CDLL(name)
    except OSError:
        return None
    vk.vkCreateInstance.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
    vk.vkCreateInstance.restype = ctypes.c_int
    vk.vkEnumeratePhysicalDevices.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
    vk.vkEnumeratePhysicalDevices.restype = ctypes.c_int
    vk.vkGetPhysicalDeviceProperties.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
    vk.vkGetPhysicalDeviceProperties.restype = None
    vk.vkDestroyInstance.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
    vk.vkDestroyInstance.restype = None
    return vk


def vulkan_device_types() -> dict[str, int]:
    """Each Vulkan device's name → its VkPhysicalDeviceType; {} where Vulkan cannot be asked."""
    vk = _loader()
    if vk is None:
        return {}
    app = _AppInfo(0, None, b"rotary", 1, b"rotary", 1, 1 << 22)     # Vulkan 1.0
    info = _InstanceInfo(1, None, 0, ctypes.pointer(app), 0, None, 0, None)
    instance = ctypes.c_void_p()
    if vk.vkCreateInstance(ctypes.byref(info), None, ctypes.byref(instance)) != 0:
        return {}
    try:
        count = ctypes.c_uint32(0)
        vk.vkEnumeratePhysicalDevices(instance, ctypes.byref(count), None)
        handles = (ctypes.c_void_p * max(count.value, 1))()
        vk.vkEnumeratePhysicalDevices(instance, ctypes.byref(count), handles)
        types = {}
        for handle in handles[:count.value]:
            props = ctypes.create_string_buffer(_PROPERTIES_BYTES)
            vk.vkGetPhysicalDeviceProperties(handle, props)
            raw = props.raw
            name = raw[_NAME_AT:_NAME_AT + _NAME_BYTES].split(b"\0", 1)[0]
            types[name.decode(errors="replace")] = int.from_bytes(raw[_TYPE_AT:_TYPE_AT + 4],
                                                                  "little")
        return types
    finally:
        vk.vkDestroyInstance(instance, None)


def refine(devices: list[dict]) -> list[dict]:
    """ggml's listing with each software device's kind set to SOFTWARE (and Vulkan's word
    on integrated graphics where ggml's differs). Runs in the device-list child."""
    types: dict[str, int] | None = None
    for device in devices:
        if device["kind"] not in ("gpu", "igpu"):
            continue
        if device["backend"] == "Vulkan":
            if types is None:
                try:
                    types = vulkan_device_types()
                except (OSError, AttributeError, ValueError) as exc:    # a broken loader
                    log.info("Vulkan's device types could not be read: %s", exc)
                    types = {}
            found = types.get(device["description"])
            if found == VK_CPU:
                device["kind"] = SOFTWARE
            elif found == VK_INTEGRATED:
                device["kind"] = "igpu"
        if SOFTWARE_NAMES.search(device["description"]):
            device["kind"] = SOFTWARE
    return devices

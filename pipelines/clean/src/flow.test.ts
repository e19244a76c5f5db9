import { describe, expect, it } from "vitest";
import { Channel, Slots } from "./flow.js";

describe("Channel", () => {
  it("hands items over in order and makes producers wait beyond its capacity", async () => {
    const channel = new Channel<number>(2);
    expect(channel.push(1)).toBeUndefined();
    expect(channel.push(2)).toBeUndefined();
    let released = false;
    const wait = channel.push(3);
    expect(wait).toBeInstanceOf(Promise);
    void wait!.then(() => (released = true));
    await Promise.resolve();
    expect(released).toBe(false);
    expect(await channel.take()).toBe(1);
    await Promise.resolve();
    expect(released).toBe(true);
    channel.close();
    expect([await channel.take(), await channel.take(), await channel.take()]).toEqual([2, 3, undefined]);
  });

  it("wakes a waiting consumer with an item, or with undefined on close", async () => {
    const channel = new Channel<string>(1);
    const first = channel.take();
    channel.push("a");
    expect(await first).toBe("a");
    const second = channel.take();
    channel.close();
    channel.close();
    expect(await second).toBeUndefined();
    expect(() => channel.push("b")).toThrow(/closed/);
  });
});

describe("Slots", () => {
  it("lets `count` holders in and serves waiters in order", async () => {
    const slots = new Slots(2);
    expect(slots.acquire()).toBeUndefined();
    expect(slots.acquire()).toBeUndefined();
    const order: number[] = [];
    void slots.acquire()!.then(() => order.push(1));
    void slots.acquire()!.then(() => order.push(2));
    slots.release();
    await Promise.resolve();
    expect(order).toEqual([1]);
    slots.release();
    slots.release();
    await Promise.resolve();
    expect(order).toEqual([1, 2]);
    expect(slots.acquire()).toBeUndefined();
  });
});
